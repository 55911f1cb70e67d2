"""Work done once per test run, however many pytest-xdist workers share it.

``once(factory, name, build)`` runs ``build(folder)`` the first time any worker asks for
``name`` and returns ``folder`` to every later caller: the folder sits beside the workers' own
temporary folders (their shared parent under xdist), and a file lock makes the others wait for
the first build instead of repeating it. A build that fails leaves no ``.done`` stamp, so the
next caller builds again (and fails the same way, in its own test).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def shared_root(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    root = shared_root(factory)
    folder = root / name
    with open(root / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (folder / ".done").is_file():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir(parents=True)
                build(folder)
                (folder / ".done").write_text("")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder
