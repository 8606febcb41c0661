"""Reaching a Ray cluster (``--ray ADDRESS``) within seconds, or failing with the address tried.

Left to itself, ``ray.init`` keeps retrying an address where nothing listens for many minutes,
and its message names the cluster's internal addresses rather than the one the user typed. So
the address is resolved and probed here first, with a plain TCP connection and a short timeout.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

#: seconds to wait for a cluster's head to answer
CONNECT_TIMEOUT = 5.0


class ClusterError(RuntimeError):
    """No Ray cluster answered at the address given."""


def _host_port(address: str) -> tuple[str, int] | None:
    """``host:port`` of an address (``ray://`` and ``http://`` prefixes allowed), or None."""
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rstrip("/").rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()) or not host:
        return None
    return host.strip("[]"), int(port)


def _auto_address() -> str | None:
    """What ``auto`` means to Ray: $RAY_ADDRESS, else the cluster this machine started last."""
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"]
    current = Path(os.environ.get("RAY_TMPDIR", "/tmp")) / "ray" / "ray_current_cluster"
    try:
        return current.read_text().strip() or None
    except OSError:
        return None


def check_address(address: str, flag: str = "--ray", timeout: float = CONNECT_TIMEOUT) -> str:
    """The address to hand to ``ray.init`` (``None`` for a local cluster is the caller's), after a
    probe: an address where nothing answers within ``timeout`` seconds is refused, naming it."""
    if address == "local":
        return address
    target = address
    if address == "auto":
        target = _auto_address() or ""
        if not target:
            raise ClusterError(f"{flag} auto: no Ray cluster is running on this machine (no RAY_ADDRESS, no "
                               "cluster started here); start one with `ray start --head`, or use "
                               f"{flag} local")
    hp = _host_port(target)
    if hp is None:
        raise ClusterError(f"{flag} {address}: expected HOST:PORT, ray://HOST:PORT, auto or local")
    named = address if address == target else f"{address} ({target})"
    try:
        with socket.create_connection(hp, timeout=timeout):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise ClusterError(f"{flag} {named}: no Ray cluster answered within {timeout:g} s ({reason}); "
                           "check the address, or use --ray local") from None
    # something answers; if it is not a Ray head, ray.init would still retry for ~20 s by default
    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(max(1, int(timeout))))
    return target
