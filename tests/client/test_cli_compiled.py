"""The generated CLI's compiled stdio path (``cli_lean``) against the SDK path it replaces
(``MCPGEN_CLI_ENGINE=sdk``): for each command, the same exit code, the same stdout and the
same stderr; and ``--help`` and a plain call never import the SDK's client."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.client.helpers import WEATHER_DIR

PY = sys.executable
SERVER = f"{PY} -m weather_server"
PEER = Path(__file__).parent / "data" / "cli_peer.py"


def peer(mode: str) -> str:
    return shlex.join([PY, str(PEER), mode])


def _env(out: Path, engine: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": f"{out}{os.pathsep}{WEATHER_DIR}"}
    for name in ("MCPGEN_TOOLSETS", "MCPGEN_TOOLS", "MCPGEN_CLI_STDIO", "MCPGEN_CLI_URL"):
        env.pop(name, None)
    env.pop("MCPGEN_CLI_ENGINE", None)
    if engine:
        env["MCPGEN_CLI_ENGINE"] = engine
    return env


def run(out: Path, args: list[str], engine: str | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [PY, "-m", "weather_cli", *args],
        env=_env(out, engine),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


CASES = {
    "call": ["--stdio", SERVER, "get-weather", "--city", "Paris"],
    "call-choice": ["--stdio", SERVER, "get-weather", "--city", "Oslo", "--units", "imperial"],
    "call-json": [
        "--stdio",
        SERVER,
        "get-forecast",
        "--location",
        '{"city": "Oslo"}',
        "--days",
        "2",
    ],
    "call-image": ["--stdio", SERVER, "weather-map", "--city", "Paris"],
    "tool-error": ["--stdio", SERVER, "report-outage", "--station", "ST-9"],
    "schema-refuses": ["--stdio", SERVER, "get-weather", "--city", ""],
    "model-refuses": ["--stdio", SERVER, "get-forecast", "--location", '{"country": "FR"}'],
    "missing-option": ["--stdio", SERVER, "get-weather"],
    "wrong-choice": ["--stdio", SERVER, "get-weather", "--city", "P", "--units", "kelvin"],
    "wrong-type": ["--stdio", SERVER, "get-forecast", "--location", "{}", "--days", "two"],
    "not-json": ["--stdio", SERVER, "get-forecast", "--location", "{bad"],
    "unknown-command": ["--stdio", SERVER, "get-wether"],
    "unknown-option": ["--stdio", SERVER, "get-weather", "--city", "P", "--colour", "red"],
    "no-server": ["get-weather", "--city", "P"],
    "no-such-command": ["--stdio", "no-such-command-here", "get-weather", "--city", "P"],
    "server-exits": ["--stdio", f"{PY} -c 'import sys; sys.exit(3)'", "get-weather", "--city", "P"],
    "server-garbage-at-once": ["--stdio", f"{PY} -c 'print(1)'", "get-weather", "--city", "P"],
    "call-times-out": ["--timeout", "1", "--stdio", peer("hang"), "get-weather", "--city", "P"],
    "server-dies-in-call": ["--stdio", peer("die"), "get-weather", "--city", "P"],
    "json-rpc-error": ["--stdio", peer("error"), "get-weather", "--city", "P"],
    "output-mismatch": ["--stdio", peer("badshape"), "get-weather", "--city", "P"],
    "output-converted": ["--stdio", peer("numbers"), "get-weather", "--city", "P"],
    "no-structured": ["--stdio", peer("nostruct"), "get-weather", "--city", "P"],
    "text-blocks": ["--stdio", peer("text"), "report-outage", "--station", "S"],
    "image-blocks": ["--stdio", peer("image"), "weather-map", "--city", "P"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_compiled_path_answers_as_the_sdk_path(cli_dir: Path, case: str) -> None:
    args = CASES[case]
    lean = run(cli_dir, args)
    sdk = run(cli_dir, args, engine="sdk")
    assert lean == sdk
    if case != "server-garbage-at-once":  # there the SDK path logs its parse error's traceback
        assert "Traceback" not in lean[2]


def test_help_and_a_call_never_import_the_sdk_client(cli_dir: Path) -> None:
    for args in (["--help"], ["get-weather", "--help"], CASES["call"], CASES["tool-error"]):
        done = subprocess.run(
            [PY, "-X", "importtime", "-m", "weather_cli", *args],
            env=_env(cli_dir, None),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode in (0, 1), done.stderr
        modules = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
        assert "mcp.client.client" not in modules and "mcp" not in modules, args
    sdk = subprocess.run(
        [PY, "-X", "importtime", "-m", "weather_cli", *CASES["call"]],
        env=_env(cli_dir, "sdk"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "mcp.client.client" in sdk.stderr  # the check can see the SDK when it is there


def test_ctrl_c_mid_call_exits_130_and_stops_the_server(cli_dir: Path, tmp_path: Path) -> None:
    pidfile = tmp_path / "peer.pid"
    cmd = shlex.join([PY, str(PEER), "hang", str(pidfile)])
    p = subprocess.Popen(
        [PY, "-m", "weather_cli", "--stdio", cmd, "get-weather", "--city", "P"],
        env=_env(cli_dir, None),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not pidfile.exists() or not pidfile.read_text():
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.05)
        time.sleep(1.0)  # the call is sent and waits on the hung peer
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 130, err
    assert err == "interrupted\n" and out == ""
    pid = int(pidfile.read_text())
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the server was left running")


def test_a_server_gone_before_the_first_request_is_handed_to_the_sdk() -> None:
    """A server that exits before the compiled path writes its first request (``server-exits``
    on a loaded machine) is the SDK path's to report ("Connection closed"), not a
    ``BrokenPipeError`` reported as a bug: the race, made certain by waiting for the exit."""
    from mcpgen_runtime.client.cli_lean import Handover, LeanCall, _run, _Server

    server = _Server([PY, "-c", "pass"], None)
    assert server.proc.wait(60) == 0
    call = LeanCall("weather_cli", "get_weather", 0, "GetWeatherInput", None, {"city": "P"})
    with pytest.raises(Handover):
        _run(server, call, "stdio server", None)
