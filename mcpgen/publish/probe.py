"""Does a bundle's entry point start? Unpack it into a temporary directory, run it as a host
would (``mcp_config``'s command, args and env, ``${__dirname}`` and ``${user_config.*}``
substituted), send one MCP ``initialize`` over stdio and a call only the built server answers
(an unknown tool: the runtime's ``-32602``; a generated server answers ``initialize`` from its
precomputed answers before it has imported its handlers), then ``tools/list``, and wait for the
three answers. Anything else (an exit, a traceback, silence for ``timeout`` seconds) is a
``BundleDoesNotStart`` naming the cause and the server's last lines of stderr; a ``tools/list``
that names other tools than the bundle's ``manifest.json`` (a stale package) is one too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from mcpgen.errors import EXIT_FINDINGS, McpgenError

__all__ = ["BundleDoesNotStart", "host_command", "probe"]

_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "mcpgen-bundle-probe", "version": "1"},
    },
}


_INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
_BUILT = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "mcpgen-bundle-probe: no such tool", "arguments": {}},
}
_LIST = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}


class BundleDoesNotStart(McpgenError):
    """The bundled server did not answer ``initialize``: exit 1, nothing written."""

    exit_code = EXIT_FINDINGS


def _subst(text: str, dirname: str, config: dict[str, str]) -> str:
    text = text.replace("${__dirname}", dirname)
    for key, value in config.items():
        text = text.replace("${user_config." + key + "}", value)
    return text


def host_command(
    doc: dict[str, Any], dirname: Path, python: str | None = None
) -> tuple[list[str], dict[str, str]]:
    """The command line and the environment a host starts the bundle with (``user_config``
    left empty unless it has a default). ``python`` stands for the command ``python``, run with
    ``-S`` (no site-packages): the bundle must start on what it carries."""
    cfg = doc["server"]["mcp_config"]
    defaults = {k: str(v.get("default", "")) for k, v in (doc.get("user_config") or {}).items()}
    d = str(dirname)
    cmd = [_subst(cfg["command"], d, defaults), *(_subst(a, d, defaults) for a in cfg["args"])]
    if python is not None and cmd[0] == "python":
        cmd[0:1] = [python, "-S"]
    env = {k: _subst(v, d, defaults) for k, v in (cfg.get("env") or {}).items()}
    return cmd, env


def probe(files: dict[str, bytes], timeout: float = 60.0, python: str | None = None) -> None:
    doc = json.loads(files["manifest.json"])
    tmp = Path(tempfile.mkdtemp(prefix="mcpgen-bundle-"))
    try:
        for name, data in files.items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        cmd, env = host_command(doc, tmp, python or sys.executable)
        listed, paged = _run(cmd, {**os.environ, **env}, tmp, timeout, doc["server"]["entry_point"])
        _compare_tools(doc, listed, paged)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _compare_tools(doc: dict[str, Any], listed: list[str], paged: bool = False) -> None:
    """The bundled server's ``tools/list`` names exactly the tools ``manifest.json`` lists
    (``paged``: only its first page was read, so only extra names count)."""
    declared = sorted(str(t.get("name")) for t in doc.get("tools") or ())
    if sorted(listed) == declared or (paged and set(listed) <= set(declared)):
        return
    missing = [] if paged else sorted(set(declared) - set(listed))
    extra = sorted(set(listed) - set(declared))
    parts = [f"manifest.json lists {', '.join(missing)}"] if missing else []
    parts += [f"it serves {', '.join(extra)} too"] if extra else []
    raise BundleDoesNotStart(
        "the bundled server's tools/list does not match manifest.json: "
        + "; ".join(parts or ["the same names, listed twice"])
        + " (is the package generated from this manifest?)"
    )


def _run(
    cmd: list[str], env: dict[str, str], cwd: Path, timeout: float, entry: str
) -> tuple[list[str], bool]:
    """Start the bundle, check it answers; the tool names its ``tools/list`` gives (and
    whether there are more pages)."""
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
    except OSError as exc:
        raise BundleDoesNotStart(
            f"the bundle's entry point {entry} does not start: cannot run {cmd[0]}: {exc.strerror}"
        ) from None
    answer: list[bytes] = []

    def read() -> None:
        assert proc.stdout is not None
        for _ in range(3):  # the answers to initialize, to the call and to tools/list
            line = proc.stdout.readline()
            if not line:
                return
            answer.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert proc.stdin is not None
    try:
        for message in (_INIT, _INITIALIZED, _BUILT, _LIST):
            proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
    except OSError:
        pass
    reader.join(timeout)
    if proc.poll() is None:
        proc.kill()
    _, err = proc.communicate()
    names: list[str] | None = None
    paged = False
    if len(answer) == 3:
        try:
            by_id = {m.get("id"): m for m in map(json.loads, answer)}
            if "result" in by_id[1] and 2 in by_id:
                names = [str(t["name"]) for t in by_id[3]["result"]["tools"]]
                paged = bool(by_id[3]["result"].get("nextCursor"))
        except (ValueError, AttributeError, KeyError, TypeError):
            names = None
    if names is not None:
        return names, paged
    tail = "\n".join("    " + ln for ln in err.decode(errors="replace").strip().splitlines()[-3:])
    why = (
        f"it exited with code {proc.returncode}"
        if answer or proc.returncode not in (None, -9)
        else f"it did not answer initialize, a first call and tools/list within {timeout:g}s"
    )
    if answer and not _is_answer(answer[0]):
        why = f"its first line on stdout is not an MCP answer: {answer[0][:200]!r}"
    raise BundleDoesNotStart(
        f"the bundle's entry point {entry} does not start: {why}"
        + (f"; its stderr ends with:\n{tail}" if tail else "")
    )


def _is_answer(line: bytes) -> bool:
    try:
        return "result" in json.loads(line)
    except (ValueError, TypeError):
        return False
