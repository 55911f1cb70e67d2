"""Breaking changes in how a tool runs under the tasks extension (``io.modelcontextprotocol/
tasks``): a tool that becomes task-only (``execution.taskSupport`` forbidden or optional ->
required) fails every call of a client that does not declare the extension (-32021).

Live servers on 2026-07-28 do not list ``execution`` (the extension has no per-tool field), so
``drift`` sees this only against a 2025-11-25 listing; manifests always carry it."""

from __future__ import annotations

from ..tasks.settings import task_support
from .pairs import Emit, ToolRef

__all__ = ["compare_task_support"]


def compare_task_support(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    before, after = task_support(old.raw), task_support(new.raw)
    if after != "required" or before == "required":
        return
    declared = isinstance(old.raw.get("execution"), dict) and "taskSupport" in old.raw["execution"]
    emit(
        "TOOL_TASK_NO_REQUIRE",
        new.pointer + "/execution/taskSupport",
        old.pointer + ("/execution/taskSupport" if declared else "/name"),
        f"tool {tool!r} became task-only (taskSupport {before} -> required): clients that do "
        "not declare the tasks extension get -32021 on every call (clients before 2026-07-28: "
        "-32601)",
        old_key=False,
    )
