"""Where each MCP client keeps its servers, and the shape of one entry. Data, one client a row:
a client that moves its file or renames a key is a one-line edit here.

Paths resolve under ``home`` (``Path.home()``) and ``cwd``; user-level application folders come
from platformdirs (``%APPDATA%``, ``~/Library/Application Support``, ``$XDG_CONFIG_HOME``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CLIENTS", "Target", "app_config_dir"]


def app_config_dir(app: str, home: Path, platform: str = sys.platform) -> Path:
    """An application's user configuration folder, as platformdirs names it for this OS, under
    ``home`` (tests pass a temporary one)."""
    import os

    if platform == "darwin":
        return home / "Library" / "Application Support" / app
    if platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else home / "AppData" / "Roaming") / app
    from platformdirs import user_config_dir

    default = Path(user_config_dir(app, appauthor=False, roaming=True))
    # platformdirs reads $XDG_CONFIG_HOME, else ~/.config of the real home
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return default if xdg else home / ".config" / app


@dataclass(frozen=True)
class Target:
    name: str
    label: str
    container: tuple[str, ...]
    """The keys from the document's root to the object that holds one entry per server."""
    paths: dict[str, Callable[[Path, Path], Path]]
    """scope (``user``/``project``) -> the file, from (home, cwd)."""
    default_scope: str
    stdio: Callable[[str, list[str], dict[str, str]], dict[str, Any]]
    http: Callable[[str], dict[str, Any]] | None
    """None: the client cannot take a remote server from its file (``no_http`` says why)."""
    no_http: str = ""
    comments: bool = False
    """The client's own files may hold comments (JSONC); they are kept either way."""


def _plain(command: str, args: list[str], env: dict[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": command, "args": args}
    if env:
        entry["env"] = env
    return entry


def _typed(command: str, args: list[str], env: dict[str, str]) -> dict[str, Any]:
    return {"type": "stdio", **_plain(command, args, env)}


CLIENTS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(
            "claude-desktop",
            "Claude Desktop",
            ("mcpServers",),
            {"user": lambda h, c: app_config_dir("Claude", h) / "claude_desktop_config.json"},
            "user",
            _plain,
            None,
            no_http="remote servers are added as connectors (Settings > Connectors), not in "
            "the configuration file",
        ),
        Target(
            "claude-code",
            "Claude Code",
            ("mcpServers",),
            {"project": lambda h, c: c / ".mcp.json", "user": lambda h, c: h / ".claude.json"},
            "project",
            _typed,
            lambda url: {"type": "http", "url": url},
        ),
        Target(
            "cursor",
            "Cursor",
            ("mcpServers",),
            {
                "user": lambda h, c: h / ".cursor" / "mcp.json",
                "project": lambda h, c: c / ".cursor" / "mcp.json",
            },
            "user",
            _plain,
            lambda url: {"url": url},
        ),
        Target(
            "vscode",
            "VS Code",
            ("servers",),
            {
                "project": lambda h, c: c / ".vscode" / "mcp.json",
                "user": lambda h, c: app_config_dir("Code", h) / "User" / "mcp.json",
            },
            "project",
            _typed,
            lambda url: {"type": "http", "url": url},
            comments=True,
        ),
        Target(
            "gemini-cli",
            "Gemini CLI",
            ("mcpServers",),
            {
                "user": lambda h, c: h / ".gemini" / "settings.json",
                "project": lambda h, c: c / ".gemini" / "settings.json",
            },
            "user",
            _plain,
            lambda url: {"httpUrl": url},
            comments=True,
        ),
        Target(
            "mcp-json",
            "a generic mcp.json",
            ("mcpServers",),
            {"project": lambda h, c: c / "mcp.json"},
            "project",
            _plain,
            lambda url: {"type": "http", "url": url},
        ),
    )
}
