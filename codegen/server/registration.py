"""How to register a generated server with common MCP clients, in their own formats. Pure."""

from __future__ import annotations

import json
import shlex
from pathlib import Path


def registration_text(server_name: str, package: str, out_dir: Path, python: str) -> str:
    """Snippets for Claude Desktop / Cursor (``mcpServers``), Claude Code (``claude mcp add``)
    and VS Code (``.vscode/mcp.json``): run ``python -m package`` with ``out_dir`` on the path."""
    root = str(out_dir.resolve())
    key = server_name
    entry = {"command": python, "args": ["-m", package], "env": {"PYTHONPATH": root}}
    desktop = json.dumps({"mcpServers": {key: entry}}, indent=2)
    vscode = json.dumps({"servers": {key: {"type": "stdio", **entry}}})
    claude = shlex.join(
        ["claude", "mcp", "add", key, "--env", f"PYTHONPATH={root}", "--", python, "-m", package]
    )
    return "\n".join(
        [
            "Register it with an MCP client (stdio):",
            "  Claude Desktop / Cursor (claude_desktop_config.json, .cursor/mcp.json):",
            *("    " + line for line in desktop.splitlines()),
            "  Claude Code:",
            "    " + claude,
            "  VS Code (.vscode/mcp.json):",
            "    " + vscode,
        ]
    )
