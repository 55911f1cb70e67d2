"""``run_code``: the model's Python in the pydantic-monty sandbox, against the server's tools.

The code sees one async function per tool (the build-time table ``api``, from
``mcpgen.codemode.compile_api``); each call goes to ``call(tool, arguments)``, which the server
supplies and which takes the path a direct ``tools/call`` takes (validation, scopes, toolsets,
rate limits). A tool error raises ``RuntimeError`` in the code; the value of the code's last
expression is the answer. Every failure, whatever its cause, is one ``isError`` result with one
message; nothing raises out of ``run_code`` but cancellation.

pydantic-monty runs the code in pooled worker subprocesses (a crash or a kill costs a worker,
never this process); it is imported on the first run, never at start-up. It sends nothing
anywhere: its OpenTelemetry/Logfire export is installed only by ``instrument_telemetry()``,
which mcpgen never calls (under strace, a run makes no ``socket``/``connect`` call, with or
without ``LOGFIRE_TOKEN``/``OTEL_EXPORTER_OTLP_ENDPOINT`` set), and its workers talk to this
process over pipes.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcpgen_runtime.codemode.limits import ALLOWED_MODULES, resolve_limits

__all__ = ["CallHook", "run_code"]

CallHook = Callable[[str, dict[str, Any]], Awaitable[Mapping[str, Any]]]
INSTALL_HINT = "code mode needs the sandbox: pip install 'mcpgen-runtime[codemode]'"

_pools: dict[int, Any] = {}
"""``id(loop)`` -> ``(loop, AsyncMonty pool)``: one warm pool per event loop."""


@dataclass
class _Run:
    calls: int = 0
    over: bool = False
    running: set[asyncio.Future[Any]] = field(default_factory=set)
    """The tool calls in flight: cancelled when the run ends early (its request cancelled,
    its wall time up), which the sandbox's client does not do for the calls it awaits."""

    def cancel_calls(self) -> None:
        for call in list(self.running):
            call.cancel()


def _error(message: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _precheck(code: object, limits: Mapping[str, float]) -> str | None:
    """Why the code cannot run, found without running it: not a string, too long, a syntax
    error, or an import outside ``ALLOWED_MODULES``."""
    if not isinstance(code, str):
        return "code must be a string of Python"
    size = len(code.encode("utf-8", "surrogatepass"))
    if size > limits["code_bytes"]:
        return f"the code is {size} bytes; the limit is {int(limits['code_bytes'])} (code_bytes)"
    if not code.strip():
        return "the code is empty"
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    try:
        tree = compile(code, "<code>", "exec", flags=flags, dont_inherit=True)
    except SyntaxError as e:
        return f"syntax error at line {e.lineno}, column {e.offset}: {e.msg}"
    except (ValueError, RecursionError, MemoryError) as e:  # NUL bytes, absurd nesting
        return f"the code cannot be parsed: {e}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = ["." * node.level + (node.module or "")]
        else:
            continue
        for module in modules:
            if module.split(".")[0] not in ALLOWED_MODULES:
                allowed = ", ".join(sorted(ALLOWED_MODULES))
                return (
                    f"line {node.lineno}: import of {module!r} is not allowed in code mode; "
                    f"the code reaches the outside only through the tool functions "
                    f"(modules it may import: {allowed})"
                )
    return None


def _deny_os(**_kw: Any) -> Any:
    """Every OS call the sandbox makes: refused (monty raises ``PermissionError`` or its own
    "not supported" error in the code)."""
    import pydantic_monty

    return pydantic_monty.NOT_HANDLED


def _tool_text(result: Mapping[str, Any]) -> str:
    texts = [
        b.get("text", "")
        for b in result.get("content") or ()
        if isinstance(b, Mapping) and b.get("type") == "text"
    ]
    return "\n".join(t for t in texts if isinstance(t, str))


def _tool_value(result: Mapping[str, Any]) -> Any:
    """What a tool function returns in the code: the structured content when there is any,
    else the text, else the content blocks."""
    structured = result.get("structuredContent")
    if structured is not None:
        return structured
    blocks = result.get("content") or []
    if all(isinstance(b, Mapping) and b.get("type") == "text" for b in blocks):
        return _tool_text(result)
    return list(blocks)


def _functions(
    api: Mapping[str, Any], call: CallHook, run: _Run, max_calls: int
) -> dict[str, Callable[..., Awaitable[Any]]]:
    table = api.get("functions", {})

    def make(fn: str, spec: Mapping[str, Any]) -> Callable[..., Awaitable[Any]]:
        tool = spec["tool"]
        params = spec.get("params", {})
        root = bool(spec.get("root"))

        async def function(*args: Any, **kwargs: Any) -> Any:
            if args:
                raise TypeError(f"{fn}() takes keyword arguments only")
            run.calls += 1
            if run.calls > max_calls:
                run.over = True
                raise RuntimeError(f"more than {max_calls} tool calls (calls)")
            if root:
                arguments = kwargs.get("arguments")
                if not isinstance(arguments, dict):
                    raise TypeError(f"{fn}() takes arguments=<dict>")
            else:
                arguments = {params.get(k, k): v for k, v in kwargs.items() if v is not None}
            pending = asyncio.ensure_future(call(tool, arguments))
            run.running.add(pending)
            pending.add_done_callback(run.running.discard)
            result = await pending
            if result.get("isError"):
                raise RuntimeError(f"tool {tool!r} failed: {_tool_text(result) or 'no message'}")
            return _tool_value(result)

        function.__name__ = fn
        return function

    return {fn: make(fn, spec) for fn, spec in table.items()}


async def _pool() -> Any:
    import pydantic_monty

    loop = asyncio.get_running_loop()
    entry = _pools.get(id(loop))
    if entry is not None and entry[0] is loop:
        return entry[1]
    pool = pydantic_monty.AsyncMonty(min_processes=1)
    _pools[id(loop)] = (loop, pool)
    await pool.__aenter__()
    return pool


def _where(e: Any) -> str:
    try:
        frames = e.traceback()
    except Exception:  # pragma: no cover (older monty)
        frames = []
    return f"line {frames[-1].line}: " if frames else ""


def _runtime_message(e: Any, run: _Run, limits: Mapping[str, float], api: Mapping[str, Any]) -> str:
    """One message for an error the code ended with."""
    exc = e.exception()
    kind = type(exc).__name__
    text = str(exc)
    if run.over or (kind == "RuntimeError" and "suspension limit" in text):
        return f"the code made more than {int(limits['calls'])} tool calls (limit 'calls')"
    if kind == "TimeoutError" and "time limit" in text:
        return f"the code ran for more than {limits['seconds']:g} s (limit 'seconds')"
    if kind == "MemoryError":
        memory, output = int(limits["memory_bytes"]), int(limits["output_bytes"])
        cap = re.search(r"> (\d+) bytes", text)
        if cap is not None and int(cap[1]) == output != memory:  # the print collector's cap
            return f"the code printed more than {output} bytes (limit 'output_bytes')"
        return f"the code used more than {memory} bytes of memory (limit 'memory_bytes')"
    message = f"{_where(e)}{e.display('type-msg')}"
    if kind == "NameError":
        names = sorted(api.get("functions", {}))
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        message += f" (the tool functions are: {shown or 'none'})"
    return message


def _answer(value: Any, printed: str, limits: Mapping[str, float]) -> dict[str, Any]:
    """The code's value as a CallToolResult: ``structuredContent: {"result": value}`` and the
    JSON (or the string) as text; what the code printed as a second text block."""
    structured = True
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        structured, text = False, repr(value)
    if isinstance(value, str):
        text = value
    size = len(text.encode("utf-8", "surrogatepass")) + len(printed.encode("utf-8", "replace"))
    if size > limits["output_bytes"]:
        return _error(
            f"the code's answer is {size} bytes; the limit is {int(limits['output_bytes'])} "
            "(limit 'output_bytes'): return less (filter or summarise in the code)"
        )
    content = [{"type": "text", "text": text}]
    if printed:
        content.append({"type": "text", "text": printed})
    result: dict[str, Any] = {"content": content, "isError": False}
    if structured:
        result["structuredContent"] = {"result": value}
    return result


async def run_code(
    code: str,
    *,
    call: CallHook,
    api: Mapping[str, Any],
    limits: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Run ``code`` in the sandbox against ``api``'s functions; a CallToolResult dict.

    ``limits``: see ``mcpgen_runtime.codemode.limits`` (keys and defaults). A bad limit is
    the server's mistake and raises ``ValueError``; everything the code does is a result."""
    lim = resolve_limits(limits)
    problem = _precheck(code, lim)
    if problem is not None:
        return _error(problem)
    try:
        import pydantic_monty as pm
    except ImportError:
        return _error(INSTALL_HINT)
    run = _Run()
    functions = _functions(api, call, run, int(lim["calls"]))
    printed = pm.CollectString(max_bytes=int(lim["output_bytes"]))
    sandbox_limits = {
        "max_feed_duration_secs": float(lim["seconds"]),
        "max_memory": int(lim["memory_bytes"]),
        "max_recursion_depth": int(lim["recursion"]),
        "max_suspensions": int(lim["calls"]) + 20,
    }

    async def feed() -> Any:
        pool = await _pool()
        async with pool.checkout(limits=sandbox_limits, os_policy={"sleep": "zero"}) as session:
            return await session.feed_run(
                code, external_lookup=functions, print_callback=printed, os=_deny_os
            )

    try:
        try:
            value = await asyncio.wait_for(feed(), lim["wall_seconds"])
        finally:  # a tool the code still awaits is cancelled with the run (nothing widens)
            run.cancel_calls()
    except asyncio.TimeoutError:
        return _error(
            f"the code did not finish within {lim['wall_seconds']:g} s, tool calls included "
            "(limit 'wall_seconds')"
        )
    except pm.MontySyntaxError as e:
        return _error(f"syntax error: {e.display('msg')}")
    except pm.MontyRuntimeError as e:
        return _error(_runtime_message(e, run, lim, api))
    except pm.MontyCrashedError as e:
        if e.timed_out:
            return _error(f"the code ran for more than {lim['seconds']:g} s (limit 'seconds')")
        return _error(f"the sandbox stopped before the code finished ({e})")
    except pm.MontyError as e:
        return _error(f"the sandbox could not run the code: {e}")
    if run.over:
        return _error(f"the code made more than {int(lim['calls'])} tool calls (limit 'calls')")
    return _answer(value, printed.output, lim)
