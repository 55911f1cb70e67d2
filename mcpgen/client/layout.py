"""What a client package is made of: each file and the template it is rendered from. Written
once, here (standard library only): the generator renders these, and ``build`` digests the same
templates on its no-op path without importing the generator."""

from __future__ import annotations

OWNED_TEMPLATES: dict[str, str] = {
    "__init__.py": "client/__init__.py.jinja",
    "client.py": "client/client.py.jinja",
    "models.py": "client/models.py.jinja",
    "tools.py": "client/tools.py.jinja",
    "py.typed": "client/py.typed.jinja",
}
"""``<package>/_generated/`` (rewritten on every run) -> template."""
USER_TEMPLATES: dict[str, str] = {"__init__.py": "client/package_init.py.jinja"}
"""``<package>/`` (created once, never overwritten) -> template."""
USER_FILES: tuple[str, ...] = tuple(USER_TEMPLATES)
TEMPLATES: tuple[str, ...] = tuple(sorted({*OWNED_TEMPLATES.values(), *USER_TEMPLATES.values()}))
"""Every template a client package is rendered from (they are part of the inputs digest)."""

CLI_OWNED_TEMPLATES: dict[str, str] = {"cli.py": "cli/cli.py.jinja"}
"""What ``mcpgen cli`` adds to a client package's ``_generated/``."""
CLI_USER_TEMPLATES: dict[str, str] = {"__main__.py": "cli/main.py.jinja"}
CLI_USER_FILES: tuple[str, ...] = (*USER_FILES, *CLI_USER_TEMPLATES)
CLI_TEMPLATES: tuple[str, ...] = tuple(
    sorted({*TEMPLATES, *CLI_OWNED_TEMPLATES.values(), *CLI_USER_TEMPLATES.values()})
)
