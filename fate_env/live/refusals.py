"""Why the live table did not take an answer or a command: each refusal carries the HTTP status the
web answers with, so a front end reports it without deciding anything itself. Nothing changed."""

from __future__ import annotations


class Refused(ValueError):
    """An answer or command that was not applied, with the reason; ``status``: 400 malformed,
    403 not this seat's, 409 not the question pending. Nothing changed."""

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.status = status


class Failed(Refused):
    """A change that broke on something unexpected (a bug, not a bad answer): the table was put back as
    it stood before it, the GM was told in one line, and the session goes on."""

    def __init__(self, reason: str):
        super().__init__(reason, 500)


class SaveExists(Refused):
    """``/save`` to a file this session did not write: replaced only when the GM says so."""

    def __init__(self, path: str):
        super().__init__(f"{path} exists and is not this session's", 409)
        self.path = path
