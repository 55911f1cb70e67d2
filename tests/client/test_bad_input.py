"""Bad input never hangs and never shows a traceback: the CLI exits 2 with one line, the
library raises a typed ``ClientError``. The misbehaving server is ``data/bad_server.py``."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.client.helpers import imported, mcpgen, mcpgen_cmd, write_client
from tests.interop.procs import free_port

BAD = Path(__file__).resolve().parent / "data" / "bad_server.py"


def bad_cmd(mode: str) -> list[str]:
    return [sys.executable, str(BAD), mode]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return mcpgen(*args)


def one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("mcpgen: error: ") and "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def bad_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A client generated from the tools the bad server lists (pulled from it, mode ok)."""
    out = tmp_path_factory.mktemp("bad")
    manifest = out / "bad.yaml"
    proc = cli("pull", "--stdio", shlex.join(bad_cmd("ok")), "-o", str(manifest))
    assert proc.returncode == 0, proc.stderr
    write_client(manifest, out, "bad_client")
    with imported(out, "bad_client") as module:
        yield module.BadClient


def call(client_cls: Any, mode: str, tool: str, **options: Any) -> BaseException:
    async def go() -> None:
        async with client_cls.stdio(bad_cmd(mode), **options) as c:
            if tool == "echo":
                await c.echo(text="hi")
            else:
                await c.typed()

    try:
        anyio.run(go)
    except BaseException as exc:  # noqa: BLE001
        return exc
    raise AssertionError("expected an error")


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-03-26", "2025-06-18"])
def test_pull_and_call_older_revisions(revision: str, tmp_path: Path) -> None:
    """The same well-behaved server answering the handshake with older revisions."""
    cmd = [*bad_cmd("ok"), revision]
    manifest = tmp_path / "old.yaml"
    proc = cli("pull", "--stdio", shlex.join(cmd), "-o", str(manifest))
    assert proc.returncode == 0 and f"protocol {revision}" in proc.stderr, proc.stderr
    assert cli("check", str(manifest)).returncode == 0
    package = "old_" + revision.replace("-", "_")
    write_client(manifest, tmp_path, package)
    with imported(tmp_path, package) as module:

        async def go() -> tuple[str, str]:
            async with module.BadClient.stdio(cmd, mode="legacy") as c:
                return c.protocol_version, (await c.echo(text="old")).text

        assert anyio.run(go) == (revision, "old")


def test_good_server_works(bad_client: Any) -> None:
    async def go() -> tuple[str, int]:
        async with bad_client.stdio(bad_cmd("ok")) as c:
            return (await c.echo(text="hi")).text, (await c.typed()).n

    assert anyio.run(go) == ("hi", 3)


def test_server_dies_mid_call(bad_client: Any) -> None:
    from mcpgen_runtime import ConnectionLostError

    exc = call(bad_client, "die", "echo")
    assert isinstance(exc, ConnectionLostError), repr(exc)
    assert exc.code == -32000


def test_protocol_error_carries_code_message_and_data(bad_client: Any) -> None:
    from mcpgen_runtime import ProtocolError

    exc = call(bad_client, "rpc_error", "echo")
    assert isinstance(exc, ProtocolError), repr(exc)
    assert (exc.code, exc.message, exc.data, exc.tool) == (
        -32602,
        "Unknown tool: echo",
        {"tool": "echo"},
        "echo",
    )


def test_malformed_result(bad_client: Any) -> None:
    from mcpgen_runtime import InvalidResultError

    exc = call(bad_client, "malformed", "echo")
    assert isinstance(exc, InvalidResultError), repr(exc)
    assert "malformed" in str(exc) and "content" in str(exc)


@pytest.mark.parametrize(
    "mode, needle", [("bad_structured", "three"), ("no_structured", "structured")]
)
def test_structured_content_that_breaks_the_output_schema(
    bad_client: Any, mode: str, needle: str
) -> None:
    from mcpgen_runtime import InvalidResultError

    exc = call(bad_client, mode, "typed")
    assert isinstance(exc, InvalidResultError), repr(exc)
    assert needle in str(exc)


def test_timeout(bad_client: Any) -> None:
    from mcpgen_runtime import CallTimeoutError

    exc = call(bad_client, "slow", "echo", timeout=0.5)
    assert isinstance(exc, CallTimeoutError) and isinstance(exc, TimeoutError), repr(exc)


def test_per_call_timeout_with_options(bad_client: Any) -> None:
    from mcpgen_runtime import CallTimeoutError

    async def go() -> None:
        async with bad_client.stdio(bad_cmd("slow")) as c:
            await c.with_options(timeout=0.3).echo(text="hi")

    with pytest.raises(CallTimeoutError):
        anyio.run(go)


def test_silent_server_connect_timeout(bad_client: Any) -> None:
    from mcpgen_runtime import ConnectError

    exc = call(bad_client, "silent", "echo", connect_timeout=1.0)
    assert isinstance(exc, ConnectError), repr(exc)


def test_unreachable_url_and_missing_command(bad_client: Any) -> None:
    from mcpgen_runtime import ConnectError

    url = f"http://127.0.0.1:{free_port()}/mcp"

    async def http() -> None:
        async with bad_client.http(url, connect_timeout=5):
            pass

    with pytest.raises(ConnectError, match="cannot connect"):
        anyio.run(http)

    async def stdio() -> None:
        async with bad_client.stdio(["/nonexistent/mcp-server"]):
            pass

    with pytest.raises(ConnectError, match="nonexistent"):
        anyio.run(stdio)


def test_arguments_are_checked_before_sending(bad_client: Any) -> None:
    from mcpgen_runtime import ArgumentsError

    async def go() -> None:
        async with bad_client.stdio(bad_cmd("die")) as c:  # would die if anything were sent
            await c.echo(text=3)

    with pytest.raises(ArgumentsError, match="/text"):
        anyio.run(go)


# -- the CLI -----------------------------------------------------------------------------------


def test_pull_unreachable_url(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    one_line_error(
        cli("pull", "--url", url, "-o", str(tmp_path / "m.yaml")), url, "cannot read the tools"
    )
    assert not (tmp_path / "m.yaml").exists()


def test_pull_missing_command(tmp_path: Path) -> None:
    one_line_error(
        cli("pull", "--stdio", "/nonexistent/server --flag", "-o", str(tmp_path / "m.yaml")),
        "/nonexistent/server",
    )


def test_pull_silent_server_times_out(tmp_path: Path) -> None:
    one_line_error(
        cli(
            "pull",
            "--stdio",
            shlex.join(bad_cmd("silent")),
            "--timeout",
            "1",
            "-o",
            str(tmp_path / "m.yaml"),
        ),
        "within 1 s",
    )


def test_pull_server_that_prints_garbage(tmp_path: Path) -> None:
    """The SDK logs a traceback for a line that is not JSON-RPC; the CLI shows one line."""
    garbage = shlex.join([sys.executable, "-c", "print('hello, not JSON')"])
    one_line_error(
        cli("pull", "--stdio", garbage, "-o", str(tmp_path / "m.yaml")),
        "Connection closed",
        "Failed to parse JSONRPC message",
    )


def test_pull_server_that_crashes_shows_its_last_stderr_line(tmp_path: Path) -> None:
    crash = shlex.join([sys.executable, "-c", "import json; json.loads('{')"])  # a traceback
    line = one_line_error(
        cli("pull", "--stdio", crash, "-o", str(tmp_path / "m.yaml")),
        "the server's stderr ends: json.decoder.JSONDecodeError",
    )
    assert "Traceback" not in line


def test_pull_endless_pagination(tmp_path: Path) -> None:
    one_line_error(
        cli("pull", "--stdio", shlex.join(bad_cmd("paged_loop")), "-o", str(tmp_path / "m.yaml")),
        "repeats the cursor",
    )


def test_pull_tool_without_input_schema(tmp_path: Path) -> None:
    one_line_error(
        cli("pull", "--stdio", shlex.join(bad_cmd("bad_list")), "-o", str(tmp_path / "m.yaml")),
        "tools/0/inputSchema",
    )


def test_pull_invalid_schemas_and_hostile_names(tmp_path: Path) -> None:
    """Written as data (so it can be inspected), reported as errors; the client generator still
    compiles it into code that injects nothing."""
    manifest = tmp_path / "m.yaml"
    line = one_line_error(
        cli("pull", "--stdio", shlex.join(bad_cmd("hostile_list")), "-o", str(manifest)),
        "fail mcpgen check",
        "written anyway",
    )
    assert "TOOL_NAME_CHARSET" in line or "more" in line
    check = mcpgen("check", "--format", "json", str(manifest))
    rules = {
        d["rule_id"] for d in json.loads(check.stdout)["diagnostics"] if d["severity"] == "error"
    }
    assert {"TOOL_NAME_CHARSET", "SCHEMA_META_INVALID"} <= rules or len(rules) >= 2, rules
    # the network $ref is refused by the generator, with one line
    gen = cli("client", str(manifest), "--out", str(tmp_path), "--package", "hostile_pulled")
    one_line_error(gen, "REF_NETWORK")
    import ast

    import yaml

    doc = yaml.safe_load(manifest.read_text())
    doc["tools"] = [t for t in doc["tools"] if t["name"] != "class"]
    manifest.write_text(yaml.safe_dump(doc))
    pkg = write_client(manifest, tmp_path, "hostile_pulled")
    for py in pkg.rglob("*.py"):
        ast.parse(py.read_text())
    with imported(tmp_path, "hostile_pulled") as module:
        cls = module.BadClient
        assert [t.name for t in cls.MCPGEN_TOOLS] == ['a b"""; import os', "Class"]
        assert {"a_b_import_os", "class_"} <= set(dir(cls))
    assert not Path("PWNED").exists()


def test_drift_bad_manifest_and_target(tmp_path: Path) -> None:
    one_line_error(cli("drift", str(tmp_path / "missing.yaml"), "--stdio", "x"), "no such file")
    one_line_error(cli("drift", str(BAD), "--stdio", "a", "--url", "http://x"), "exactly one")
    one_line_error(cli("pull", "--url", "ftp://x/mcp", "-o", str(tmp_path / "m.yaml")), "http://")


def test_pull_prints_the_client_command_and_it_works_as_printed(tmp_path: Path) -> None:
    """``mcpgen pull`` ends with the ``mcpgen client`` line that compiles what it wrote (next
    to the manifest, a package named for the server); run as printed, it generates a client
    that calls the server."""
    cmd = [*bad_cmd("ok"), "2025-11-25"]
    manifest = tmp_path / "pulled.yaml"
    proc = cli("pull", "--stdio", shlex.join(cmd), "-o", str(manifest))
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if x.startswith("next: ")]
    argv = shlex.split(line.removeprefix("next: "))
    assert argv[:2] == ["mcpgen", "client"] and argv[2] == str(manifest)
    assert argv[3:] == ["--out", str(tmp_path), "--package", "bad_client"]
    made = subprocess.run([*mcpgen_cmd(), *argv[1:]], capture_output=True, text=True)  # as printed
    assert made.returncode == 0, made.stderr
    with imported(tmp_path, "bad_client") as module:

        async def go() -> str:
            async with module.BadClient.stdio(cmd, mode="legacy") as c:
                return str((await c.echo(text="as printed")).text)

        assert anyio.run(go) == "as printed"
