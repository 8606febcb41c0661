"""Files the tool writes: checked before any work starts (so a long run never fails at its last
step), never replacing what the user kept unless told to, and written whole or not at all.

The promises (docs/safety.md):
- an output that exists is replaced only when the user says so (``--force``, or yes at a prompt);
- an output is never one of the command's own inputs, whatever the flags;
- every write goes to a temporary file in the same folder and is renamed over the target, so an
  interrupt, a full disk or a crash leaves the old file (or none), never half of one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from .safe_text import OneLineError


class OutputPathError(OneLineError):
    """A file the command was asked to write cannot be written there."""


def _same_file(a: Path, b: str | os.PathLike) -> bool:
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | os.PathLike, what: str, force: bool = False,
                 inputs: Iterable[str | os.PathLike] = (), hint: str = "--force") -> Path:
    """Refuse, with the reason, a path whose folder is missing, that names a folder, that is one of
    ``inputs``, or that exists when ``force`` is not given (``hint`` says how to replace it)."""
    p = Path(path)
    parent = p.parent  # "." for a bare file name
    if p.is_dir():
        raise OutputPathError(f"{what} {path}: is a folder; expected a file name")
    if not parent.is_dir():
        raise OutputPathError(f"{what} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise OutputPathError(f"{what} {path}: the folder {parent} is not writable")
    for given in inputs:
        if _same_file(p, given):
            raise OutputPathError(f"{what} {path}: is the file this command reads ({given}); "
                                  "expected another file name")
    if (p.exists() or p.is_symlink()) and not force:
        raise OutputPathError(f"{what} {path}: the file exists; expected a new file name "
                              f"(or {hint} to replace it)")
    return p


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", **kwargs) -> Iterator[IO]:
    """A file handle whose contents become ``path`` only if the block ends without an error.

    The temporary file has a unique name beside the target (two writers never share one), is
    flushed to disk before the rename, and is removed if anything goes wrong, an interrupt included.
    """
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent if str(p.parent) else ".")
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if p.exists():  # keep the target's permissions (mkstemp makes the file private)
            with contextlib.suppress(OSError):
                os.chmod(tmp, p.stat().st_mode & 0o7777)
        else:
            with contextlib.suppress(OSError):
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomically(path: str | os.PathLike, text: str | bytes) -> None:
    """Write a whole file or nothing: a crash mid-write leaves the old file in place."""
    if isinstance(text, bytes):
        with atomic_open(path, "wb") as fh:
            fh.write(text)
    else:
        with atomic_open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


class FileLock:
    """A claim on a file that several processes might write (a live session's save): a second
    claimant is refused at once, naming the process that holds it, never left to write over it.

    The lock is ``flock`` on a hidden ``.NAME.lock`` file beside the target: the system drops it
    when the holder exits, even by ``kill -9``, so a crash never leaves a file locked forever. (On
    systems without ``fcntl`` the claim is not enforced.)"""

    def __init__(self, path: str | os.PathLike, what: str = "save to"):
        self.path = Path(path)
        self.what = what
        self.lock_path = self.path.with_name(f".{self.path.name}.lock")
        self._fh: IO | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            return
        for _ in range(10):  # the holder may remove the lock file between our open and our lock
            fh = open(self.lock_path, "a+")
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                fh.seek(0)
                holder = fh.read(20).strip()
                fh.close()
                raise OutputPathError(
                    f"{self.what} {self.path}: another fate-npc session is writing it"
                    + (f" (process {holder})" if (holder.isascii() and holder.isdigit()) else "")
                    + "; expected another file name, or end that session first") from None
            try:
                same = os.stat(self.lock_path).st_ino == os.fstat(fh.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                fh.seek(0)
                fh.truncate()
                fh.write(str(os.getpid()))
                fh.flush()
                self._fh = fh
                return
            fh.close()
        raise OutputPathError(f"{self.what} {self.path}: could not claim it (its lock file keeps changing)")

    def release(self) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.lock_path)
            self._fh.close()
            self._fh = None

    def __enter__(self) -> "FileLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
