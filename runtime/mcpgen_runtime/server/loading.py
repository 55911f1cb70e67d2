"""The user's ``handlers.py``, imported when the server is built (``load_handlers`` returns a
``DeferredHandlers``). A ``handlers.py`` that cannot be imported (a syntax error, a name
``_generated/`` no longer has, any exception at import) ends the process with one line naming
the file, the line, the name and the fix: never a traceback."""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

__all__ = ["DeferredHandlers", "load_handlers", "resolve_handlers"]

_CANNOT_IMPORT = r"cannot import name '([^']+)' from '([^']+)'"
"""How ``ImportError`` names what it cannot import (read on the failure path only)."""


class DeferredHandlers:
    """``<package>.handlers.Handlers()``, imported on first use (``resolve``); its attributes
    are the instance's."""

    __slots__ = ("package", "_instance")

    def __init__(self, package: str) -> None:
        self.package = package
        self._instance: Any = None

    def resolve(self) -> Any:
        if self._instance is None:
            self._instance = _load_now(self.package)
        return self._instance

    def __getattr__(self, name: str) -> Any:
        return getattr(self.resolve(), name)


def load_handlers(package: str) -> DeferredHandlers:
    """``<package>.handlers.Handlers()``, imported when the server is built: one that does not
    import ends the process with exit 1 and one line saying what to fix."""
    return DeferredHandlers(package)


def resolve_handlers(handlers: Any) -> Any:
    """The handlers instance behind ``handlers`` (a ``DeferredHandlers`` or the instance)."""
    return handlers.resolve() if isinstance(handlers, DeferredHandlers) else handlers


def _load_now(package: str) -> Any:
    """``<package>.handlers.Handlers()``, or exit 1 with one line saying what to fix."""
    module = f"{package}.handlers"
    try:
        mod = importlib.import_module(module)
        cls = getattr(mod, "Handlers", None)
        if cls is None:
            _fail(f"{_file_of(mod)}: defines no class Handlers (class Handlers(ToolsBase): ...)")
        return cls()
    except SyntaxError as exc:
        where = f"{exc.filename}:{exc.lineno}:{exc.offset or 1}"
        _fail(f"{where}: syntax error in handlers.py: {exc.msg}")
    except ImportError as exc:
        _fail(_import_problem(exc, package))
    except Exception as exc:  # noqa: BLE001 - one line instead of a traceback, then exit
        where = _user_frame(exc, package) or module
        _fail(f"{where}: importing {module} raised {type(exc).__name__}: {exc}")


def _import_problem(exc: ImportError, package: str) -> str:
    where = _user_frame(exc, package) or f"{package}/handlers.py"
    import re

    m = re.search(_CANNOT_IMPORT, str(exc))
    if m is None:
        return f"{where}: {exc} (is the package's environment installed? pip install -e .)"
    name, source = m.groups()
    fix = ""
    if source.endswith("._generated") or source.endswith("._generated.base"):
        if name.endswith("ToolsBase"):
            fix = (
                "; the base class is ToolsBase now, whatever the server is called: "
                "from ._generated import ToolsBase (and class Handlers(ToolsBase))"
            )
        else:
            fix = (
                "; _generated/ no longer has it (a renamed or removed tool?): run mcpgen server "
                "again and read its report"
            )
    return f"{where}: cannot import {name!r} from {source}{fix}"


def _user_frame(exc: BaseException, package: str) -> str | None:
    """``file:line`` of the innermost frame inside the package (not ``_generated``)."""
    found = None
    import traceback
    from pathlib import Path

    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        if package in path.parts and "_generated" not in path.parts:
            found = f"{frame.filename}:{frame.lineno}"
    return found


def _file_of(mod: Any) -> str:
    return str(getattr(mod, "__file__", None) or mod.__name__)


def _fail(line: str) -> NoReturn:
    print(f"mcpgen: error: {line}", file=sys.stderr, flush=True)
    raise SystemExit(1)
