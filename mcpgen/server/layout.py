"""What a server package is made of: each file and the template it is rendered from. Written
once, here (standard library only): the generator renders these, and ``build`` digests the same
templates on its no-op path without importing the generator."""

from __future__ import annotations

OWNED_TEMPLATES: dict[str, str] = {
    "__init__.py": "server/__init__.py.jinja",
    "base.py": "server/base.py.jinja",
    "discovery.py": "server/discovery.py.jinja",
    "models.py": "server/models.py.jinja",
    "server.py": "server/server.py.jinja",
    "tools.py": "server/tools.py.jinja",
    "py.typed": "server/py.typed.jinja",
}
"""``<package>/_generated/`` (rewritten on every run) -> template."""
USER_TEMPLATES: dict[str, str] = {
    "__init__.py": "server/package_init.py.jinja",
    "handlers.py": "server/handlers.py.jinja",
    "__main__.py": "server/__main__.py.jinja",
}
"""``<package>/`` (created once, never overwritten) -> template."""
USER_FILES: tuple[str, ...] = tuple(USER_TEMPLATES)
TEMPLATES: tuple[str, ...] = tuple(sorted({*OWNED_TEMPLATES.values(), *USER_TEMPLATES.values()}))
"""Every template a server package is rendered from (they are part of the inputs digest)."""
RUNTIME_SOURCES: tuple[str, ...] = (
    "_version.py",
    "lean/discovery.py",
    "lean/jsonrpc.py",
    "search_index.py",
    "server/discovery_modes.py",
    "server/listing.py",
    "server/shaping.py",
    "server/toolsets.py",
)
"""The runtime's modules that compute ``_generated/discovery.py`` at build time
(``mcpgen.server.discovery``); part of the inputs digest."""
