"""Breaking changes inside a tool's schemas: input parameters (removed, newly required, type
or enum or bounds narrowed, closed to extra keys) and output properties (removed, no longer
required, type changed, enum or bounds widened), over every paired node (``pairs``)."""

from __future__ import annotations

from ..schemawalk import esc
from .bounds import narrowings
from .pairs import (
    Emit,
    Side,
    ToolRef,
    canonical,
    covered,
    json_types,
    pair_objects,
    path_label,
    pointer_to,
    properties,
    required_names,
    tool_side,
    type_label,
)

__all__ = ["compare_input", "compare_output"]


def compare_input(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    for old_node, new_node, path in pair_objects(
        tool_side(old, "inputSchema"), tool_side(new, "inputSchema")
    ):
        where = f"tool {tool!r} input" + (f" {path!r}" if path else "")
        if path:  # the root's type is fixed (object)
            old_types, new_types = json_types(old_node.schema), json_types(new_node.schema)
            if new_types is not None and (
                old_types is None or any(not covered(t, new_types) for t in old_types)
            ):
                # narrowed: what it accepts now it accepted before; else another type
                narrowed = old_types is None or all(covered(t, old_types) for t in new_types)
                emit(
                    "INPUT_PROPERTY_SAME_TYPE",
                    new_node.pointer + "/type",
                    old_node.pointer,
                    f"{where}: type {'narrowed' if narrowed else 'changed'} from "
                    f"{type_label(old_types)} to {type_label(new_types)}",
                    old_key=False,
                )
        compare_enum_input(emit, where, old_node, new_node)
        for key, what, before, after in narrowings(old_node.schema, new_node.schema):
            emit(
                "INPUT_BOUND_NO_NARROW",
                pointer_to(new_node, key),
                pointer_to(old_node, key),
                f"{where}: {what} narrowed from {before} to {after}; values valid before are "
                "now rejected",
                old_key=False,
            )
        old_props, new_props = properties(old_node.schema), properties(new_node.schema)
        for name in old_props:
            if name not in new_props:
                emit(
                    "INPUT_PROPERTY_NO_DELETE",
                    pointer_to(new_node, "properties"),
                    f"{old_node.pointer}/properties/{esc(name)}",
                    f"tool {tool!r}: input parameter {path_label(path, name)!r} was removed",
                    new_key=True,
                )
        old_required = set(required_names(old_node.schema))
        for i, name in enumerate(required_names(new_node.schema)):
            if name not in old_required:
                what = "is a new required parameter" if name not in old_props else "became required"
                emit(
                    "INPUT_REQUIRED_NO_ADD",
                    f"{new_node.pointer}/required/{i}",
                    pointer_to(old_node, "required"),
                    f"tool {tool!r}: input parameter {path_label(path, name)!r} {what}",
                )
        if (
            isinstance(new_node.schema, dict)
            and new_node.schema.get("additionalProperties") is False
            and isinstance(old_node.schema, dict)
            and old_node.schema.get("additionalProperties") is not False
            and ("properties" in old_node.schema or not path)
        ):
            emit(
                "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE",
                new_node.pointer + "/additionalProperties",
                pointer_to(old_node, "additionalProperties"),
                f"{where}: additionalProperties closed (false); "
                "calls with extra keys are now rejected",
            )


def compare_enum_input(emit: Emit, where: str, old_node: Side, new_node: Side) -> None:
    old_enum = old_node.schema.get("enum") if isinstance(old_node.schema, dict) else None
    new_enum = new_node.schema.get("enum") if isinstance(new_node.schema, dict) else None
    if not isinstance(new_enum, list):
        return
    if not isinstance(old_enum, list):
        if "const" not in (old_node.schema or {}):
            emit(
                "ENUM_VALUE_NO_DELETE",
                new_node.pointer + "/enum",
                old_node.pointer,
                f"{where}: an enum now restricts a parameter that accepted any value",
                old_key=False,
            )
        return
    new_values = {canonical(v) for v in new_enum}
    for i, v in enumerate(old_enum):
        if canonical(v) not in new_values:
            emit(
                "ENUM_VALUE_NO_DELETE",
                new_node.pointer + "/enum",
                f"{old_node.pointer}/enum/{i}",
                f"{where}: enum value {v!r} was removed",
                old_key=False,
            )


def compare_output(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    if not isinstance(old.raw.get("outputSchema"), dict):
        return
    if not isinstance(new.raw.get("outputSchema"), dict):
        emit(
            "OUTPUT_SCHEMA_NO_DELETE",
            new.pointer + "/name",
            old.pointer + "/outputSchema",
            f"tool {tool!r}: outputSchema was removed",
        )
        return
    for old_node, new_node, path in pair_objects(
        tool_side(old, "outputSchema"), tool_side(new, "outputSchema")
    ):
        where = f"tool {tool!r} output" + (f" {path!r}" if path else "")
        old_types, new_types = json_types(old_node.schema), json_types(new_node.schema)
        if old_types is not None and (
            new_types is None or any(not covered(t, old_types) for t in new_types)
        ):
            emit(
                "OUTPUT_PROPERTY_SAME_TYPE",
                pointer_to(new_node, "type"),
                pointer_to(old_node, "type"),
                f"{where}: type changed from {type_label(old_types)} to {type_label(new_types)}",
                old_key=False,
            )
        old_enum = old_node.schema.get("enum") if isinstance(old_node.schema, dict) else None
        new_enum = new_node.schema.get("enum") if isinstance(new_node.schema, dict) else None
        if isinstance(old_enum, list) and isinstance(new_enum, list):
            old_values = {canonical(v) for v in old_enum}
            for i, v in enumerate(new_enum):
                if canonical(v) not in old_values:
                    emit(
                        "OUTPUT_ENUM_VALUE_NO_ADD",
                        f"{new_node.pointer}/enum/{i}",
                        old_node.pointer + "/enum",
                        f"{where}: new enum value {v!r} may be rejected by clients",
                        old_key=False,
                    )
        # a widened output is the old output narrower than the new one
        for key, what, after, before in narrowings(new_node.schema, old_node.schema):
            emit(
                "OUTPUT_BOUND_NO_WIDEN",
                pointer_to(new_node, key),
                pointer_to(old_node, key),
                f"{where}: {what} widened from {before} to {after}; clients built on the old "
                "schema reject the new values",
                old_key=False,
            )
        new_props = properties(new_node.schema)
        for name in properties(old_node.schema):
            if name not in new_props:
                emit(
                    "OUTPUT_PROPERTY_NO_DELETE",
                    pointer_to(new_node, "properties"),
                    f"{old_node.pointer}/properties/{esc(name)}",
                    f"tool {tool!r}: output property {path_label(path, name)!r} was removed",
                    new_key=True,
                )
        new_required = set(required_names(new_node.schema))
        for i, name in enumerate(required_names(old_node.schema)):
            if name not in new_required and name in new_props:
                emit(
                    "OUTPUT_REQUIRED_NO_DELETE",
                    pointer_to(new_node, "required"),
                    f"{old_node.pointer}/required/{i}",
                    f"tool {tool!r}: output property {path_label(path, name)!r} is no longer "
                    "required",
                    old_key=False,
                )
