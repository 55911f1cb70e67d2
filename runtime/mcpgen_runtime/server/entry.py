"""A generated package's entry point (``python -m PKG`` and the console script) imports the
user's ``handlers.py`` through ``load_handlers``. A ``handlers.py`` that cannot be imported (a
syntax error, a name ``_generated/`` no longer has, any exception at import) ends the process
with one line naming the file, the line, the name and the fix: never a traceback.

The caller then calls ``run_cli`` itself, at module level in ``__main__.py``: every frame
between the module and the event loop costs instructions on every call (something on the SDK's
call path walks the stack; measured with ``bench/bench_server.py --instructions``)."""

from __future__ import annotations

import importlib
import re
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

__all__ = ["load_handlers"]

_CANNOT_IMPORT = re.compile(r"cannot import name '([^']+)' from '([^']+)'")


def load_handlers(package: str) -> Any:
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
    m = _CANNOT_IMPORT.search(str(exc))
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
