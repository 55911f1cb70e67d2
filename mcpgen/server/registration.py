"""How to register a generated server with common MCP clients, in their own formats. Pure,
apart from looking at the project: its ``pyproject.toml`` (the console script), whether it has
a ``.venv``, and whether ``uv`` is on ``PATH``.

The command runs the server in the *project's* environment, never in mcpgen's:

* a project whose ``pyproject.toml`` has a console script for the package (what ``mcpgen init``
  writes): ``<project>/.venv/bin/<script>`` (the venv the project's install step creates);
* another project with a ``pyproject.toml``: its ``.venv``'s Python (``-m PKG``, the output
  directory on ``PYTHONPATH``) when there is one, else ``uv run --directory <project> python -m
  PKG`` when ``uv`` is on ``PATH``;
* otherwise: this Python with the output directory on ``PYTHONPATH`` (said so).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mcpgen.project import find_pyproject, read_pyproject


@dataclass(frozen=True)
class Launch:
    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    note: str = ""
    """Said under the snippets when the command needs something first."""


def _console_script(root: Path, package: str) -> str | None:
    try:
        doc = read_pyproject(root / "pyproject.toml")
    except (OSError, ValueError):
        return None
    scripts = doc.get("project", {}).get("scripts", {})
    if not isinstance(scripts, dict):
        return None
    for name, target in sorted(scripts.items()):
        if isinstance(target, str) and target.split(":")[0] in (package, f"{package}.__main__"):
            return str(name)
    return None


def venv_script(root: Path, script: str) -> Path:
    bindir = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return root / ".venv" / bindir / (script + suffix)


def launch_for(package: str, out_dir: Path, python: str = sys.executable) -> Launch:
    out = out_dir.resolve()
    pyproject = find_pyproject(out)
    root = pyproject.parent if pyproject is not None else None
    if root is not None:
        script = _console_script(root, package)
        if script is not None:
            exe = venv_script(root, script)
            note = "" if exe.exists() else f"it works once the project's install step creates {exe}"
            return Launch(str(exe), [], note=note)
        venv_python = venv_script(root, "python")
        if venv_python.exists():
            return Launch(str(venv_python), ["-m", package], {"PYTHONPATH": str(out)})
        if shutil.which("uv") is not None:
            env = {} if out == root else {"PYTHONPATH": str(out)}
            return Launch(
                "uv",
                ["run", "--directory", str(root), "python", "-m", package],
                env,
                note="uv runs it in the project's environment",
            )
        why = f"{root} has no .venv and uv is not on PATH"
    else:
        why = "no pyproject.toml found above the package"
    return Launch(
        python,
        ["-m", package],
        {"PYTHONPATH": str(out)},
        note=f"{why}: this runs it with mcpgen's own Python",
    )


def registration_text(server_name: str, launch: Launch) -> str:
    """Snippets for Claude Desktop / Cursor (``mcpServers``), Claude Code (``claude mcp add``)
    and VS Code (``.vscode/mcp.json``)."""
    key = server_name
    entry: dict[str, object] = {"command": launch.command, "args": launch.args}
    if launch.env:
        entry["env"] = launch.env
    desktop = json.dumps({"mcpServers": {key: entry}}, indent=2)
    vscode = json.dumps({"servers": {key: {"type": "stdio", **entry}}})
    env_flags = [part for k, v in launch.env.items() for part in ("--env", f"{k}={v}")]
    claude = shlex.join(
        ["claude", "mcp", "add", key, *env_flags, "--", launch.command, *launch.args]
    )
    lines = [
        "Register it with an MCP client (stdio):",
        "  Claude Desktop / Cursor (claude_desktop_config.json, .cursor/mcp.json):",
        *("    " + line for line in desktop.splitlines()),
        "  Claude Code:",
        "    " + claude,
        "  VS Code (.vscode/mcp.json):",
        "    " + vscode,
    ]
    if launch.note:
        lines.append(f"  ({launch.note})")
    return "\n".join(lines)
