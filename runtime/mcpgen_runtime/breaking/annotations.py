"""Breaking changes in a tool's safety annotations: a read-only tool that no longer is, a
non-destructive one that becomes destructive, an idempotent one that no longer is, a closed
world that opens (absent hints read as the spec's defaults)."""

from __future__ import annotations

from typing import Any

from .pairs import Emit, ToolRef

__all__ = ["compare_annotations"]


def compare_annotations(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    old_hints, new_hints = old.annotations, new.annotations
    was_read_only = old_hints.get("readOnlyHint", False) is True
    is_read_only = new_hints.get("readOnlyHint", False) is True
    new_base = new.pointer + ("/annotations" if "annotations" in new.raw else "/name")
    old_base = old.pointer + ("/annotations" if "annotations" in old.raw else "/name")

    def hint_pointer(hints: dict[str, Any], base: str, key: str) -> str:
        return f"{base}/{key}" if key in hints and base.endswith("/annotations") else base

    if was_read_only and not is_read_only:
        destructive = new_hints.get("destructiveHint", True) is not False
        emit(
            "ANNOTATION_SAFETY_NO_WEAKEN",
            hint_pointer(new_hints, new_base, "readOnlyHint"),
            hint_pointer(old_hints, old_base, "readOnlyHint"),
            f"tool {tool!r} is no longer read-only"
            + (" and is now (by default) destructive" if destructive else ""),
            old_key=False,
        )
        return
    if not was_read_only and not is_read_only:
        was_destructive = old_hints.get("destructiveHint", True) is not False
        is_destructive = new_hints.get("destructiveHint", True) is not False
        if not was_destructive and is_destructive:
            emit(
                "ANNOTATION_SAFETY_NO_WEAKEN",
                hint_pointer(new_hints, new_base, "destructiveHint"),
                hint_pointer(old_hints, old_base, "destructiveHint"),
                f"tool {tool!r} became destructive (destructiveHint false -> "
                f"{'absent (true)' if 'destructiveHint' not in new_hints else 'true'})",
                old_key=False,
            )
        if (
            old_hints.get("idempotentHint", False) is True
            and new_hints.get("idempotentHint", False) is not True
        ):
            emit(
                "ANNOTATION_SAFETY_NO_WEAKEN",
                hint_pointer(new_hints, new_base, "idempotentHint"),
                hint_pointer(old_hints, old_base, "idempotentHint"),
                f"tool {tool!r} is no longer idempotent (clients may have retried it)",
                old_key=False,
            )
    if (
        old_hints.get("openWorldHint", True) is False
        and new_hints.get("openWorldHint", True) is not False
    ):
        emit(
            "ANNOTATION_SAFETY_NO_WEAKEN",
            hint_pointer(new_hints, new_base, "openWorldHint"),
            hint_pointer(old_hints, old_base, "openWorldHint"),
            f"tool {tool!r} now reaches an open world (openWorldHint false -> true)",
            old_key=False,
        )
