"""The runtime's stdio transport (asyncio pipes handed to the SDK's ``stdio_server``): the
wire stays clean when a handler prints and a child process reads stdin and writes stdout;
the descriptors are restored afterwards; stdin as a regular file falls back to the SDK's
transport; answers are the same as the SDK transport's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest

from tests.server.helpers import write_package

MANIFEST = {
    "server": {"name": "noisy", "version": "1.0.0"},
    "tools": [
        {
            "name": "noisy",
            "description": "Prints, and runs a child that reads stdin and writes stdout.",
            "inputSchema": {"type": "object", "properties": {}},
        }
    ],
}

HANDLERS = textwrap.dedent(
    """
    from __future__ import annotations

    import subprocess
    import sys

    from mcpgen_runtime import ToolContext

    from ._generated import ToolsBase
    from ._generated.models import NoisyInput


    class Handlers(ToolsBase):
        async def noisy(self, args: NoisyInput, ctx: ToolContext) -> str:
            print("stray print from a handler")
            sys.stdout.flush()
            child = subprocess.run(
                [sys.executable, "-c",
                 "import sys; data = sys.stdin.read(); print('child wrote this'); "
                 "print(len(data), file=sys.stderr)"],
                capture_output=False, timeout=30, stderr=subprocess.PIPE, text=True,
            )
            return f"child read {child.stderr.strip()} bytes from stdin"
    """
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("noisy")
    manifest = out / "tools.json"
    manifest.write_text(json.dumps(MANIFEST))
    write_package(manifest, out, "noisy", HANDLERS)
    return out


def _env(package: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(package)}


@pytest.mark.parametrize("transport", ["auto", "sdk"])
def test_wire_stays_clean(package: Path, transport: str) -> None:
    """Through the official client (stdin/stdout are pipes: the runtime's transport on
    ``auto``): a handler's print and a child's stdout go to stderr, the child reads EOF."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main() -> tuple[str, str]:
        errlog = open(package / f"stderr-{transport}.txt", "w+")  # noqa: SIM115
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "noisy", "--stdio-transport", transport],
            env=_env(package),
        )
        async with Client(stdio_client(params, errlog=errlog)) as client:
            first = await client.call_tool("noisy", {})
            second = await client.call_tool("noisy", {})  # still a clean wire afterwards
        errlog.seek(0)
        return first.content[0].text + " / " + second.content[0].text, errlog.read()

    text, stderr = anyio.run(main)
    assert text == "child read 0 bytes from stdin / child read 0 bytes from stdin"
    assert "stray print from a handler" in stderr and "child wrote this" in stderr


REQUESTS = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def test_stdout_to_a_file_falls_back_to_the_sdk_transport(package: Path, tmp_path: Path) -> None:
    """stdout a regular file (no pipe transport for it): the SDK's own transport serves."""
    import time

    out = tmp_path / "answers.jsonl"
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "noisy"],
            stdin=subprocess.PIPE,
            stdout=sink,
            stderr=subprocess.DEVNULL,
            env=_env(package),
        )
        assert proc.stdin is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in REQUESTS).encode())
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while out.read_text().count("\n") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.stdin.close()
        proc.wait(timeout=60)
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert [a.get("id") for a in answers] == [1, 2]
    assert answers[1]["result"]["tools"][0]["name"] == "noisy"


def test_descriptors_are_restored(tmp_path: Path) -> None:
    """After serving, fd 0 and 1 are the same pipes as before, in blocking mode."""
    script = tmp_path / "claim.py"
    script.write_text(
        textwrap.dedent(
            """
            import asyncio, os, sys
            from mcpgen_runtime.server.stdio import claimed_stdio, pipes_available

            before = [os.fstat(fd).st_ino for fd in (0, 1)]
            assert pipes_available()

            async def main():
                async with claimed_stdio() as (lines, writer):
                    inside = [os.fstat(fd).st_ino for fd in (0, 1)]
                    assert inside != before, inside
                    print("print while serving goes to stderr")
                    await writer.write("on the wire\\n")
                    await writer.flush()
                    async for line in lines:
                        await writer.write("echo " + line)
                        await writer.flush()

            asyncio.run(main())
            after = [os.fstat(fd).st_ino for fd in (0, 1)]
            assert after == before, (before, after)
            assert os.get_blocking(0) and os.get_blocking(1)
            sys.stdout.write("after: stdout is the wire again\\n")
            """
        )
    )
    proc = subprocess.run(
        [sys.executable, str(script)],
        input=b"a\nb\n",
        capture_output=True,
        timeout=60,
        env={**os.environ},
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == "on the wire\necho a\necho b\nafter: stdout is the wire again\n"
    assert "print while serving goes to stderr" in proc.stderr.decode()
