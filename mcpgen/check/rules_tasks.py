"""Rules for long-running tools under the official tasks extension (``io.modelcontextprotocol/
tasks``, SEP-2663): each tool's ``execution.taskSupport`` and the server's ``server.tasks``.

The extension applies from 2026-07-28: a client declares it per request, and the server decides
per call whether to answer with a task (``required``: always, and ``-32021`` to a client that did
not declare it; ``optional``: when the client declared it; ``forbidden``: never).
"""

from __future__ import annotations

from mcpgen.check.context import ManifestCtx, ToolCtx
from mcpgen.check.registry import (
    LINT,
    MODERN_REVISIONS,
    E,
    I,
    W,
    checker,
    rule,
    until,
)
from mcpgen_runtime.jsonschema_facts import escape_token
from mcpgen_runtime.tasks.settings import task_support

_BEFORE_EXTENSION = until("2025-11-25")

rule(
    "TOOL_TASK_REQUIRED_REVISION",
    LINT,
    W,
    "A tool with execution.taskSupport: required is not callable on revisions the tasks "
    "extension does not cover (every revision before 2026-07-28).",
    _BEFORE_EXTENSION,
    why="The tasks extension applies from 2026-07-28 (the 2025-11-25 experimental tasks are not "
    "served): a client on an older revision cannot take the task the tool always runs as, so "
    "every call it makes fails (-32601).",
)
rule(
    "TOOL_TASK_NO_EXTENSION_REVISION",
    LINT,
    I,
    "A tool with execution.taskSupport: optional runs as a task only on 2026-07-28 and later; "
    "with no such revision targeted it never does.",
    _BEFORE_EXTENSION,
    why="Info: every call still works (as a plain call), but the tool never gets the task "
    "behaviour the manifest asks for; add 2026-07-28 to `protocol`, or drop taskSupport.",
)
rule(
    "TASKS_SETTING_RANGE",
    LINT,
    E,
    "server.tasks values are integers in range: keepSeconds 1..31536000 (a year), "
    "pollIntervalMs 1..3600000 (1 hour), maxLivePerCaller and maxLive >= 1.",
    why="The runtime keeps, suggests and caps tasks by these numbers; a zero, negative, "
    "fractional or absurd value would expire tasks before a client can read them, tell clients "
    "to poll never or constantly, or refuse every task.",
)
rule(
    "TASKS_SETTING_UNKNOWN",
    LINT,
    E,
    "server.tasks has only keepSeconds, pollIntervalMs, maxLivePerCaller and maxLive.",
    why="An unknown key is usually a misspelt setting, whose default then applies silently.",
)
rule(
    "TASKS_CAPS_ORDER",
    LINT,
    W,
    "server.tasks.maxLivePerCaller is not above server.tasks.maxLive.",
    why="The server-wide cap is reached first, so the per-caller cap never applies: one caller "
    "can hold every live task, which the per-caller cap was meant to prevent.",
)
rule(
    "TASKS_POLL_AFTER_EXPIRY",
    LINT,
    W,
    "server.tasks.pollIntervalMs is shorter than keepSeconds (in milliseconds).",
    why="A client that honours the suggested poll interval may first look after the finished "
    "task was discarded, and then gets not-found instead of the result.",
)
rule(
    "TASKS_UNUSED",
    LINT,
    I,
    "server.tasks is set only when some tool has execution.taskSupport optional or required.",
    why="Info: harmless, the settings are never used; usually a tool lost its taskSupport.",
)

TASK_SETTINGS: dict[str, tuple[int, int | None]] = {
    "keepSeconds": (1, 31_536_000),
    "pollIntervalMs": (1, 3_600_000),
    "maxLivePerCaller": (1, None),
    "maxLive": (1, None),
}
"""Each ``server.tasks`` setting -> its (minimum, maximum or None)."""


@checker("TOOL_TASK_REQUIRED_REVISION", "TOOL_TASK_NO_EXTENSION_REVISION")
def check_task_revisions(ctx: ToolCtx) -> None:
    ts = task_support(ctx.raw)
    if ts == "required":
        revs = ctx.revs("TOOL_TASK_REQUIRED_REVISION")
        if revs:
            which = (
                f"revisions {', '.join(revs)} are" if len(revs) > 1 else f"revision {revs[0]} is"
            )
            ctx.emit(
                "TOOL_TASK_REQUIRED_REVISION",
                "/execution/taskSupport",
                f"taskSupport: required, but {which} not covered by the tasks extension "
                "(2026-07-28+): clients on them cannot call this tool (-32601); use optional, "
                "or target only 2026-07-28 and later with `protocol`",
            )
    elif ts == "optional" and not MODERN_REVISIONS & set(ctx.revisions):
        ctx.emit(
            "TOOL_TASK_NO_EXTENSION_REVISION",
            "/execution/taskSupport",
            f"taskSupport: optional, but no targeted revision ({', '.join(ctx.revisions)}) has "
            "the tasks extension (2026-07-28+): the tool never runs as a task",
        )


@checker(
    "TASKS_SETTING_RANGE",
    "TASKS_SETTING_UNKNOWN",
    "TASKS_CAPS_ORDER",
    "TASKS_POLL_AFTER_EXPIRY",
    "TASKS_UNUSED",
    scope="manifest",
)
def check_task_settings(ctx: ManifestCtx) -> None:
    raw = ctx.manifest.raw
    server = raw.get("server") if isinstance(raw, dict) else None
    if not isinstance(server, dict) or "tasks" not in server:
        return
    tasks = server["tasks"]
    if not isinstance(tasks, dict):
        ctx.emit("TASKS_SETTING_RANGE", "/server/tasks", "server.tasks must be an object")
        return
    good: dict[str, int] = {}
    for key, value in tasks.items():
        ptr = "/server/tasks/" + escape_token(key)
        bounds = TASK_SETTINGS.get(key)
        if bounds is None:
            ctx.emit("TASKS_SETTING_UNKNOWN", ptr, _unknown(key), key=True)
            continue
        low, high = bounds
        fits = isinstance(value, int) and not isinstance(value, bool)
        if fits and value >= low and (high is None or value <= high):
            good[key] = value
            continue
        span = f"{low}..{high}" if high is not None else f">= {low}"
        ctx.emit(
            "TASKS_SETTING_RANGE",
            ptr,
            f"server.tasks.{key} must be an integer {span}, not {value!r}",
        )
    per, total = good.get("maxLivePerCaller"), good.get("maxLive")
    if per is not None and total is not None and per > total:
        ctx.emit(
            "TASKS_CAPS_ORDER",
            "/server/tasks/maxLivePerCaller",
            f"maxLivePerCaller {per} is above maxLive {total}: the per-caller cap never applies",
        )
    poll, keep = good.get("pollIntervalMs"), good.get("keepSeconds")
    if poll is not None and keep is not None and poll >= keep * 1000:
        ctx.emit(
            "TASKS_POLL_AFTER_EXPIRY",
            "/server/tasks/pollIntervalMs",
            f"pollIntervalMs {poll} is not shorter than keepSeconds {keep} ({keep * 1000} ms): "
            "a client polling at that pace may find the finished task gone",
        )
    if not any(task_support(t.raw) != "forbidden" for t in ctx.manifest.tools):
        ctx.emit(
            "TASKS_UNUSED",
            "/server/tasks",
            "server.tasks is set, but no tool has execution.taskSupport optional or required",
            key=True,
        )


def _unknown(key: str) -> str:
    import difflib  # only on this rare path

    close = difflib.get_close_matches(key, list(TASK_SETTINGS), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    known = ", ".join(TASK_SETTINGS)
    return f"unknown server.tasks setting {key!r}{hint}; known: {known}"


__all__ = ["TASK_SETTINGS", "task_support"]
