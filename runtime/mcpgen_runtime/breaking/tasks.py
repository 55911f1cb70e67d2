"""Breaking changes in how a tool runs under the tasks extension (``io.modelcontextprotocol/
tasks``): a tool that becomes task-only (``execution.taskSupport`` forbidden or optional ->
required) fails every call of a client that does not declare the extension (-32021).

Live servers on 2026-07-28 do not list ``execution`` (the extension has no per-tool field), so
``drift`` sees this only against a 2025-11-25 listing; manifests always carry it."""

from __future__ import annotations

from .pairs import Emit, ToolRef

__all__ = ["compare_task_support"]


def _task_support(tool: ToolRef) -> str:
    ex = tool.raw.get("execution")
    ts = ex.get("taskSupport") if isinstance(ex, dict) else None
    return ts if ts in ("optional", "required") else "forbidden"


def compare_task_support(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    before, after = _task_support(old), _task_support(new)
    if after != "required" or before == "required":
        return
    declared = isinstance(old.raw.get("execution"), dict) and "taskSupport" in old.raw["execution"]
    emit(
        "TOOL_TASK_NO_REQUIRE",
        new.pointer + "/execution/taskSupport",
        old.pointer + ("/execution/taskSupport" if declared else "/name"),
        f"tool {tool!r} became task-only (taskSupport {before} -> required): clients that do "
        "not declare the tasks extension (and every client before 2026-07-28) get -32021 on "
        "every call",
        old_key=False,
    )
