#!/usr/bin/env python3
"""Experiment behind docs/sdk-upstream.md section 1 (not a test, not a benchmark).

Copies the installed ``mcp`` package to DEST and replaces its ``__init__.py`` with a lazy one
(PEP 562 ``__getattr__`` over the same names, same ``__all__``), so the import time of a
generated server can be measured with and without a lazy SDK package ``__init__``:

  .venv/bin/python bench/lazy_sdk_import.py /tmp/lazy
  PYTHONPATH=examples/weather .venv/bin/python -X importtime -c \\
      "import weather_server._generated.server" 2>&1 | tail -1
  PYTHONPATH=/tmp/lazy:examples/weather .venv/bin/python -X importtime -c \\
      "import weather_server._generated.server" 2>&1 | tail -1
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    import mcp

    src = Path(mcp.__file__).parent
    dst = Path(sys.argv[1])
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst / "mcp")
    names: dict[str, tuple[str, str]] = {}
    for node in ast.parse((src / "__init__.py").read_text()).body:
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                names[alias.asname or alias.name] = (module, alias.name)
    lazy = f"""import importlib

_LAZY = {names!r}


def __getattr__(name):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(name) from None
    if module == ".":
        value = importlib.import_module("." + attr, __name__)
    else:
        value = getattr(importlib.import_module(module, __name__), attr)
    globals()[name] = value
    return value


__all__ = {sorted(names)!r}
"""
    (dst / "mcp" / "__init__.py").write_text(lazy)
    print(f"wrote {dst / 'mcp'} (lazy __init__)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
