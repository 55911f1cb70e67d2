"""What a new user meets after the first generation: renaming the server, adding a tool, a
handlers.py that no longer imports, and the line a server prints at start. Real ``mcpgen server``
runs, real ``python -m PKG`` processes, a real ``mcp.Client`` call."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

REPO = Path(__file__).resolve().parents[2]

MANIFEST = """\
server: {name: myproj, version: 0.1.0}
tools:
  - name: add_note
    description: Add a note.
    inputSchema:
      type: object
      properties: {text: {type: string}}
      required: [text]
"""

# handlers.py as earlier mcpgen versions wrote it: the base class named after server.name
OLD_HANDLERS = """\
from mcpgen_runtime import ToolContext

from ._generated import MyprojToolsBase
from ._generated.models import AddNoteInput


class Handlers(MyprojToolsBase):
    async def add_note(self, args: AddNoteInput, ctx: ToolContext) -> str:
        return f"added {args.text}"
"""


def mcpgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def serve(cwd: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "notes_pkg", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def call(cwd: Path, tool: str, arguments: dict[str, object]) -> tuple[bool, str]:
    from mcp import Client, StdioServerParameters

    async def go() -> tuple[bool, str]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "notes_pkg"], cwd=str(cwd), env=dict(os.environ)
        )
        async with Client(params) as client:
            result = await client.call_tool(tool, arguments)
            return bool(result.is_error), result.content[0].text  # type: ignore[union-attr]

    return anyio.run(go)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "tools.yaml").write_text(MANIFEST)
    made = mcpgen("server", "tools.yaml", "--out", ".", "--package", "notes_pkg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    (tmp_path / "notes_pkg" / "handlers.py").write_text(OLD_HANDLERS)
    return tmp_path


def test_rename_and_new_tool(project: Path) -> None:
    # the old name still imports while server.name is unchanged
    assert call(project, "add_note", {"text": "x"}) == (False, "added x")
    renamed = MANIFEST.replace("name: myproj", "name: notes") + (
        "  - name: list_notes\n    description: List notes.\n    inputSchema: {type: object}\n"
    )
    (project / "tools.yaml").write_text(renamed)
    regen = mcpgen("server", "tools.yaml", "--out", ".", "--package", "notes_pkg", cwd=project)
    assert regen.returncode == 0, regen.stderr
    report = regen.stderr
    assert "`from ._generated import MyprojToolsBase` no longer resolves" in report
    assert "use: from ._generated import ToolsBase (and `class Handlers(ToolsBase)`" in report
    # a ready stub for the new tool, with its import
    assert "tool 'list_notes' has no method in Handlers" in report
    assert (
        "    async def list_notes(self, args: ListNotesInput, ctx: ToolContext) -> ToolResult:\n"
        "        raise NotImplementedError\n"
        "  with: from ._generated.models import ListNotesInput"
    ) in report
    # starting it now: one line naming the file, the line, the name and the fix
    started = serve(project)
    assert started.returncode == 1
    assert "Traceback" not in started.stderr
    lines = started.stderr.strip().splitlines()
    assert len(lines) == 1, started.stderr
    handlers = project / "notes_pkg" / "handlers.py"
    assert lines[0].startswith(f"mcpgen: error: {handlers}:3: cannot import 'MyprojToolsBase'")
    assert "from ._generated import ToolsBase" in lines[0]
    # the fix the report named; the new tool answers "not implemented yet" until written
    handlers.write_text(OLD_HANDLERS.replace("MyprojToolsBase", "ToolsBase"))
    assert call(project, "add_note", {"text": "y"}) == (False, "added y")
    assert call(project, "list_notes", {}) == (True, "Tool 'list_notes' is not implemented yet.")


@pytest.mark.parametrize(
    "source, expected",
    [
        ("def broken(:\n", ":1:12: syntax error in handlers.py: "),
        ("import no_such_module_xyz\n", ":1: No module named 'no_such_module_xyz'"),
        ("raise RuntimeError('boom at import')\n", ":1: importing notes_pkg.handlers raised"),
        ("x = 1\n", "defines no class Handlers"),
    ],
)
def test_a_handlers_file_that_does_not_import_is_one_line(
    project: Path, source: str, expected: str
) -> None:
    (project / "notes_pkg" / "handlers.py").write_text(source)
    started = serve(project)
    assert started.returncode == 1
    lines = started.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in started.stderr, started.stderr
    assert lines[0].startswith("mcpgen: error: ") and expected in lines[0], lines[0]
    assert "handlers.py" in lines[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_start_line_names_transport_url_and_revisions(project: Path) -> None:
    (project / "notes_pkg" / "handlers.py").write_text(
        OLD_HANDLERS.replace("MyprojToolsBase", "ToolsBase")
    )
    stdio = serve(project)  # stdin at EOF: prints its line, then ends
    assert stdio.returncode == 0, stdio.stderr
    assert stdio.stderr.splitlines()[0] == (
        "mcpgen: myproj 0.1.0 serving MCP over stdio (protocol revisions 2024-11-05 to 2026-07-28)"
    )
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "notes_pkg", "--http", "--port", str(port), "--path", "/notes"],
        cwd=project,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().strip()
        url = f"http://127.0.0.1:{port}/notes"
        assert first == (
            f"mcpgen: myproj 0.1.0 serving MCP over Streamable HTTP at {url} "
            "(protocol revisions 2024-11-05 to 2026-07-28)"
        )
        # the printed URL is the one that answers
        import httpx

        deadline = time.monotonic() + 20
        while True:
            try:
                r = httpx.post(
                    url,
                    json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                    headers={"Accept": "application/json, text/event-stream"},
                )
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert r.status_code in (200, 400), r.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
