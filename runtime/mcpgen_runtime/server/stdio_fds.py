"""Where the stdio wire lives while a server serves it: private close-on-exec duplicates of
fd 0 and 1, with fd 0 at the null device and fd 1 at stderr, so a handler's ``print()`` and a
child process that reads stdin cannot corrupt it (``claim_stdio``); and whether stdin and stdout
are pipes the asyncio transports can take (``pipes_available``). No asyncio here: the lean
engine's fast boot claims the wire before the event loop is imported."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import NamedTuple

__all__ = ["Claim", "claim_stdio", "duplicate", "pipes_available"]


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def pipes_available() -> bool:
    """Whether this process's stdin and stdout are pipes or sockets on a POSIX system."""
    return sys.platform != "win32" and _is_pipe(0) and _is_pipe(1)


def _claim(fd: int, diversion: Callable[[], int]) -> tuple[int, Callable[[], None]]:
    """A private close-on-exec duplicate of ``fd`` (the wire), with ``fd`` pointed at
    ``diversion()`` until the returned restore function runs."""
    private = duplicate(fd)
    divert = diversion()
    try:
        os.dup2(divert, fd)
    finally:
        os.close(divert)

    def restore() -> None:
        with suppress(OSError):
            os.dup2(private, fd)
        with suppress(OSError):
            os.close(private)

    return private, restore


def duplicate(fd: int) -> int:
    """A close-on-exec duplicate of ``fd`` above the standard descriptors."""
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


def _stdout_diversion() -> int:
    try:
        return os.dup(2)
    except OSError:
        return os.open(os.devnull, os.O_WRONLY)


class Claim(NamedTuple):
    """The wire on private duplicates of fd 0 and 1 (``claim_stdio``); ``restore`` points fd
    0 and 1 back at it."""

    in_fd: int
    out_fd: int
    restore: Callable[[], None]


def claim_stdio() -> Claim:
    """Move the wire to private duplicates: fd 0 at the null device and fd 1 at stderr until
    ``restore``."""
    sys.stdout.flush()
    in_fd, restore_in = _claim(0, lambda: os.open(os.devnull, os.O_RDONLY))
    try:
        out_fd, restore_out = _claim(1, _stdout_diversion)
    except BaseException:
        restore_in()
        raise

    def restore() -> None:
        # what was printed while serving is still in sys.stdout's buffer where stdout is a
        # pipe and Python buffers it (no PYTHONUNBUFFERED): it belongs to the diversion
        # (stderr), not to the wire given back
        with suppress(Exception):
            sys.stdout.flush()
        restore_out()
        restore_in()
        for fd in (0, 1):  # the pipes' file descriptions were set non-blocking
            with suppress(OSError):
                os.set_blocking(fd, True)

    return Claim(in_fd, out_fd, restore)
