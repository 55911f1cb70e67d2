"""The wire types embedded into generated packages (``_generated/wire.py``).

Generated servers must not import ``mcp_wire`` or ``codegen`` at run time, so the generator
copies the text of the installed ``mcp_wire`` module of the newest revision (read through
``importlib.resources``, so it works from a wheel) and rewrites its one import of the shared
base class to a relative import of ``_generated/wire_base.py``.

Reading is cheap (no pydantic import): the texts also feed the inputs digest.
"""

from __future__ import annotations

import functools
from importlib import resources

from codegen.errors import McpgenError

WIRE_PACKAGE = "mcp_wire"
WIRE_MODULE = "v2026_07_28"
_BASE_IMPORT = "from mcp_wire._base import WireModel\n"
_LOCAL_BASE_IMPORT = "from .wire_base import WireModel\n"


def _strip_header(text: str) -> str:
    lines = text.splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "".join(lines).lstrip("\n")


@functools.cache
def wire_sources() -> tuple[str, str]:
    """``(wire.py body, wire_base.py body)`` without their original headers."""
    try:
        pkg = resources.files(WIRE_PACKAGE)
        module = (pkg / f"{WIRE_MODULE}.py").read_text(encoding="utf-8")
        base = (pkg / "_base.py").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError) as exc:
        raise McpgenError(
            f"the {WIRE_PACKAGE} package (wire models) is not installed: {exc}"
        ) from exc
    if module.count(_BASE_IMPORT) != 1:
        raise McpgenError(f"{WIRE_PACKAGE}.{WIRE_MODULE}: unexpected import layout")
    body = _strip_header(module).replace(_BASE_IMPORT, _LOCAL_BASE_IMPORT)
    doc = (
        '"""MCP wire types (protocol revision 2026-07-28), embedded from mcp_wire.\n\n'
        "Build content blocks for ``ToolResult`` with them: ``TextContent``, ``ImageContent``,\n"
        "``AudioContent``, ``ResourceLink``, ``EmbeddedResource``, ``Annotations``. The runtime\n"
        'downgrades blocks a client\'s revision lacks.\n"""\n\n'
    )
    return doc + body, _strip_header(base)
