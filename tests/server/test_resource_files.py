"""``file:`` resources: a file beside the manifest is copied into the generated package byte for
byte, served as text (text/* and UTF-8) or as a blob, and tracked as an input (a changed file
makes the package out of date). A path outside the manifest's directory (``..``, a symlink, an
absolute path), a missing file or one over 16 MiB is one located error, exit 2, nothing
written."""

from __future__ import annotations

import base64
import os
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.inprocess import mcpgen
from tests.server.helpers import imported

PNG = bytes(range(256)) * 4


def _mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=cwd)


def _project(tmp_path: Path, file_line: str = "") -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "note.txt").write_text("hello from a file\n", encoding="utf-8")
    (tmp_path / "data" / "pixel.png").write_bytes(PNG)
    (tmp_path / "m.yaml").write_text(
        "server: {name: files}\n"
        "tools: [{name: t, inputSchema: {type: object}}]\n"
        "resources:\n"
        '  - {uri: "f://note", name: note, mimeType: text/plain, file: data/note.txt}\n'
        '  - {uri: "f://pixel", name: pixel, mimeType: image/png, file: data/pixel.png}\n'
        + file_line,
        encoding="utf-8",
    )
    return tmp_path


def test_files_are_copied_served_and_tracked(tmp_path: Path) -> None:
    work = _project(tmp_path)
    made = _mcpgen("server", "m.yaml", "--out", ".", "--package", "files_pkg", cwd=work)
    assert made.returncode == 0, made.stderr
    data = work / "files_pkg" / "_generated" / "resources"
    assert (data / "1-pixel").read_bytes() == PNG
    assert (data / "0-note").read_bytes() == b"hello from a file\n"

    with imported(work, "files_pkg") as handlers:
        gen = __import__("files_pkg._generated", fromlist=["create_server"])

        async def read(mode: str) -> tuple[str, bytes]:
            async with Client(gen.create_server(handlers.Handlers()), mode=mode) as c:
                note = (await c.read_resource("f://note")).contents[0]
                pixel = (await c.read_resource("f://pixel")).contents[0]
                return note.text, base64.b64decode(pixel.blob)

        for mode in ("legacy", "2026-07-28"):
            assert anyio.run(read, mode) == ("hello from a file\n", PNG)

    # the file is an input: changing it makes the package out of date
    again = _mcpgen("server", "m.yaml", "--out", ".", "--package", "files_pkg", cwd=work)
    assert "is up to date" in again.stderr
    (work / "data" / "pixel.png").write_bytes(PNG[::-1])
    checked = _mcpgen(
        "server", "m.yaml", "--out", ".", "--package", "files_pkg", "--check", cwd=work
    )
    assert checked.returncode == 1
    assert "Binary file files_pkg/_generated/resources/1-pixel differs" in checked.stdout


@pytest.mark.parametrize(
    ("spelled", "prepare", "message"),
    [
        ("../outside.txt", "outside", "is outside the manifest's directory"),
        ("data/link.txt", "symlink", "is outside the manifest's directory"),
        ("data/missing.txt", None, "does not exist"),
        ("/etc/hostname", None, "is an absolute path"),
        ("data/huge.bin", "huge", "the limit is 16777216 (16 MiB)"),
        ("data", None, "is not a regular file"),
        ("data/x\\0.txt", None, "a file name cannot hold a NUL character"),
        ("data/loop.txt", "loop", "cannot be resolved"),
    ],
)
def test_bad_files_are_one_located_error(
    tmp_path: Path, spelled: str, prepare: str | None, message: str
) -> None:
    root = tmp_path / "p"
    root.mkdir()
    work = _project(
        root, f'  - {{uri: "f://bad", name: bad, mimeType: text/plain, file: "{spelled}"}}\n'
    )
    outside = tmp_path / "outside.txt"
    outside.write_text("secret\n", encoding="utf-8")
    if prepare == "symlink":
        os.symlink(outside, work / "data" / "link.txt")
    elif prepare == "loop":
        os.symlink("loop.txt", work / "data" / "loop.txt")
    elif prepare == "huge":
        with open(work / "data" / "huge.bin", "wb") as fh:
            fh.truncate(16 * 1024 * 1024 + 1)
    made = _mcpgen("server", "m.yaml", "--out", ".", "--package", "bad_pkg", cwd=work)
    assert made.returncode == 2, made.stdout + made.stderr
    lines = [ln for ln in made.stderr.splitlines() if "RESOURCE_FILE" in ln]
    assert len(lines) == 1 and lines[0].startswith("mcpgen: error: m.yaml:6:"), made.stderr
    assert message in lines[0]
    assert "Traceback" not in made.stderr
    assert not (work / "bad_pkg").exists()
    checked = _mcpgen("check", "m.yaml", cwd=work)
    assert checked.returncode == 1 and "RESOURCE_FILE" in checked.stdout  # a finding


def test_completion_handlers_see_the_other_arguments(tmp_path: Path) -> None:
    """``completions: handler``: the generated ``Handlers.complete_<name>`` computes the values
    and sees the arguments already given (``context``); static lists stay static."""
    (tmp_path / "m.yaml").write_text(
        "server: {name: comp}\n"
        "tools: []\n"
        "prompts:\n"
        "  - name: trip\n"
        "    arguments:\n"
        "      - {name: country, required: true, completions: [France, Japan]}\n"
        "      - {name: city, required: true, completions: handler}\n"
        '    messages: [{role: user, text: "Visit {city}, {country}."}]\n'
        "resourceTemplates:\n"
        '  - uriTemplate: "trip://{country}/{city}"\n'
        "    name: place\n"
        "    variables:\n"
        "      city: {type: string, completions: handler}\n",
        encoding="utf-8",
    )
    made = _mcpgen("server", "m.yaml", "--out", ".", "--package", "comp_pkg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    handlers = tmp_path / "comp_pkg" / "handlers.py"
    text = handlers.read_text(encoding="utf-8")
    cities = '{"France": ["Paris", "Lyon"], "Japan": ["Tokyo", "Kyoto"]}'
    for method in ("complete_place", "complete_trip"):
        stub = text[text.index(f"    async def {method}(") :]
        body = stub[: stub.index("raise NotImplementedError") + len("raise NotImplementedError")]
        text = text.replace(
            body,
            body.replace(
                "raise NotImplementedError",
                f"cities = {cities}.get(context.get('country', ''), [])\n"
                "        return [c for c in cities if c.lower().startswith(value.lower())]",
            ),
        )
    handlers.write_text(text, encoding="utf-8")
    with imported(tmp_path, "comp_pkg") as module:
        gen = __import__("comp_pkg._generated", fromlist=["create_server"])
        import mcp.types as types

        async def complete(mode: str) -> list[list[str]]:
            async with Client(gen.create_server(module.Handlers()), mode=mode) as c:
                trip = types.PromptReference(type="ref/prompt", name="trip")
                place = types.ResourceTemplateReference(
                    type="ref/resource", uri="trip://{country}/{city}"
                )
                got = [
                    await c.complete(trip, {"name": "city", "value": "ky"}, {"country": "Japan"}),
                    await c.complete(trip, {"name": "city", "value": ""}, {"country": "France"}),
                    await c.complete(trip, {"name": "country", "value": "f"}),
                    await c.complete(place, {"name": "city", "value": "p"}, {"country": "France"}),
                ]
                return [r.completion.values for r in got]

        for mode in ("legacy", "2026-07-28"):
            assert anyio.run(complete, mode) == [
                ["Kyoto"],
                ["Paris", "Lyon"],
                ["France"],
                ["Paris"],
            ]
