"""Tool metadata rules: fields per revision, descriptions, annotations, execution, and the
server block (icons: ``rules_icons``)."""

from __future__ import annotations

from typing import Any

from mcpgen.check.context import ManifestCtx, ToolCtx
from mcpgen.check.registry import (
    ALL_REVISIONS,
    LINT,
    MODERN_REVISIONS,
    SPEC,
    E,
    I,
    W,
    checker,
    rule,
    since,
)
from mcpgen_runtime.revisions import KNOWN_REVISIONS, TOOL_FIELDS, tool_field_revisions
from mcpgen_runtime.schemawalk import esc, get_pointer, unesc

rule(
    "TOOL_FIELD_REVISION",
    LINT,
    I,
    "Tool fields exist in every targeted revision (annotations 2025-03-26+, "
    "title/outputSchema/_meta 2025-06-18+, icons 2025-11-25+, execution 2025-11-25 and, as the "
    "server's choice under the tasks extension, 2026-07-28+); elsewhere clients ignore them.",
    default_enabled=False,
    why="Off: clients ignore fields their revision lacks and the runtime shapes responses per "
    "revision, so the field is harmless; where behaviour depends on it, "
    "TOOL_TASK_REQUIRED_REVISION warns (rules_tasks).",
)
rule(
    "TOOL_DESCRIPTION_MISSING",
    LINT,
    W,
    "Every tool has a non-empty description (models choose tools by it).",
    why="Models choose tools by their description; without one the tool is picked wrongly or "
    "never.",
)
rule(
    "PROPERTY_DESCRIPTION_MISSING",
    LINT,
    I,
    "Every input parameter has a description (models fill arguments from it).",
    why="Info: models fill most parameters well from the name and type; describe the ambiguous "
    "ones.",
)
rule(
    "ANNOTATION_UNKNOWN_FIELD",
    LINT,
    I,
    "Tool annotations use only title, readOnlyHint, destructiveHint, idempotentHint, "
    "openWorldHint.",
    since("2025-03-26"),
    why="Info: clients ignore annotations they do not know (a misspelt hint is "
    "ANNOTATION_FIELD_TYPO, a warning).",
)
rule(
    "ANNOTATION_FIELD_TYPO",
    LINT,
    W,
    "An unknown annotation that is a misspelling of a known hint (readonlyHint, "
    "destructive_hint...).",
    since("2025-03-26"),
    why="Clients ignore it, so the hint you meant is missing: a read-only tool is treated as "
    "destructive and every call asks for confirmation.",
)
rule(
    "ANNOTATION_TYPE",
    LINT,
    E,
    "Annotation values have the right type (title: string; *Hint: boolean).",
    since("2025-03-26"),
    why=SPEC,
)
rule(
    "ANNOTATION_CONTRADICTION",
    LINT,
    W,
    "Annotations do not contradict each other (readOnlyHint: true with destructiveHint: true).",
    since("2025-03-26"),
    why="Clients pick one of the two hints; which one varies, so confirmation prompts do too.",
)
rule(
    "ANNOTATION_REDUNDANT",
    LINT,
    I,
    "destructiveHint/idempotentHint mean nothing when readOnlyHint is true (but idempotentHint "
    "does on a task tool: it decides whether a task is run again after its replica dies).",
    since("2025-03-26"),
    why="Info: harmless; clients ignore the extra hints.",
)
rule(
    "EXECUTION_TASK_SUPPORT",
    LINT,
    E,
    "execution holds only taskSupport, which is forbidden, optional or required.",
    since("2025-11-25"),
    why=SPEC,
)
rule(
    "SERVER_NAME_BLANK",
    LINT,
    E,
    "An explicit server name is not blank (it becomes serverInfo.name; omit it to use the file "
    "name).",
    why="serverInfo.name is required; a blank one breaks clients that key servers by name.",
)
rule(
    "MANIFEST_NO_TOOLS",
    LINT,
    W,
    "The manifest defines at least one tool.",
    why="A server generated from it offers clients nothing.",
)

# Tool fields that some revision lacks -> the revisions that have them (one table, the runtime's).
_ALWAYS = frozenset.intersection(*TOOL_FIELDS.values())
_REVISIONS_OF = {
    f: tool_field_revisions(f)
    for f in sorted(
        frozenset().union(*TOOL_FIELDS.values()) - _ALWAYS,
        key=lambda f: (len(KNOWN_REVISIONS) - len(tool_field_revisions(f)), f),
    )
}
_ANNOTATIONS = {
    "title": str,
    "readOnlyHint": bool,
    "destructiveHint": bool,
    "idempotentHint": bool,
    "openWorldHint": bool,
}
_TASK_SUPPORT = ("forbidden", "optional", "required")


@checker("TOOL_FIELD_REVISION")
def check_field_revisions(ctx: ToolCtx) -> None:
    for field, supported in _REVISIONS_OF.items():
        if field not in ctx.raw:
            continue
        if field == "execution":  # from 2026-07-28 the server decides tasks by it (extension)
            supported = supported | MODERN_REVISIONS
        missing = [r for r in ctx.revisions if r not in supported]
        if not missing:
            continue
        if field == "execution":
            where = "tasks exist in 2025-11-25 and, as the tasks extension, from 2026-07-28"
        else:
            first = min(supported & ALL_REVISIONS, key=lambda r: r if r != "draft" else "9")
            where = f"exists from {first}"
        ctx.emit(
            "TOOL_FIELD_REVISION",
            "/" + field,
            f"{field!r} is not part of revision {', '.join(missing)} ({where}); clients on "
            "that revision ignore it",
            key=True,
        )


@checker("TOOL_DESCRIPTION_MISSING", "PROPERTY_DESCRIPTION_MISSING")
def check_descriptions(ctx: ToolCtx) -> None:
    d = ctx.raw.get("description")
    if not isinstance(d, str) or not d.strip():
        ctx.emit(
            "TOOL_DESCRIPTION_MISSING",
            "/name" if "name" in ctx.raw else "",
            f"tool {ctx.name()!r} has no description",
        )
    if not ctx.active("PROPERTY_DESCRIPTION_MISSING"):
        return
    for node in ctx.input_nodes:
        if not node.static or node.pointer == "":
            continue
        s = node.schema
        if _has_description(s):
            continue
        ref = s.get("$ref")
        if isinstance(ref, str):
            target = ctx.refs("inputSchema").resolve(ref, node.base)
            if target is None:
                continue  # SCHEMA_REF_UNRESOLVED reports it
            found, t = get_pointer(ctx.raw.get("inputSchema"), target)
            if found and isinstance(t, dict) and _has_description(t):
                continue
        name = unesc(node.pointer.rsplit("/", 1)[-1])
        ctx.emit(
            "PROPERTY_DESCRIPTION_MISSING",
            f"/inputSchema{node.pointer}",
            f"parameter {name!r} of tool {ctx.name()!r} has no description",
            key=True,
        )


def _has_description(s: dict[str, Any]) -> bool:
    d = s.get("description")
    return isinstance(d, str) and bool(d.strip())


@checker(
    "ANNOTATION_UNKNOWN_FIELD",
    "ANNOTATION_FIELD_TYPO",
    "ANNOTATION_TYPE",
    "ANNOTATION_CONTRADICTION",
    "ANNOTATION_REDUNDANT",
)
def check_annotations(ctx: ToolCtx) -> None:
    ann = ctx.raw.get("annotations")
    if ann is None:
        return
    if not isinstance(ann, dict):
        ctx.emit("ANNOTATION_TYPE", "/annotations", "annotations must be an object")
        return
    for key, value in ann.items():
        ptr = "/annotations/" + esc(key)
        want = _ANNOTATIONS.get(key)
        if want is None:
            import difflib  # only on this rare path: it costs a few ms to import

            close = _typo_of(key) or difflib.get_close_matches(
                key, list(_ANNOTATIONS), n=1, cutoff=0.8
            )
            if close:
                ctx.emit(
                    "ANNOTATION_FIELD_TYPO",
                    ptr,
                    f"unknown annotation {key!r} (did you mean {close[0]!r}?); clients ignore "
                    "it, so that hint is not given",
                    key=True,
                )
            else:
                ctx.emit("ANNOTATION_UNKNOWN_FIELD", ptr, f"unknown annotation {key!r}", key=True)
        elif not isinstance(value, want):
            ctx.emit(
                "ANNOTATION_TYPE",
                ptr,
                f"annotation {key!r} must be a {'string' if want is str else 'boolean'}, "
                f"not {_json_type(value)}",
            )
    if ann.get("readOnlyHint") is True:
        if ann.get("destructiveHint") is True:
            ctx.emit(
                "ANNOTATION_CONTRADICTION",
                "/annotations/destructiveHint",
                "readOnlyHint: true contradicts destructiveHint: true (a read-only tool "
                "cannot destroy anything); clients will pick one",
            )
        # a task tool's idempotentHint decides whether a task is run again after its replica
        # dies (mcpgen_runtime.tasks): never meaningless there
        from mcpgen_runtime.tasks.settings import task_support

        task_tool = task_support(ctx.raw) != "forbidden"
        for key in ("destructiveHint", "idempotentHint"):
            if key == "idempotentHint" and task_tool:
                continue
            if key in ann and not (key == "destructiveHint" and ann[key] is True):
                ctx.emit(
                    "ANNOTATION_REDUNDANT",
                    "/annotations/" + key,
                    f"{key} is meaningless when readOnlyHint is true",
                    key=True,
                )


def _typo_of(key: str) -> list[str]:
    """The known annotation ``key`` spells differently only by case, ``_`` or ``-``."""
    folded = key.replace("_", "").replace("-", "").lower()
    return [k for k in _ANNOTATIONS if k.lower() == folded]


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    return {
        bool: "boolean",
        str: "string",
        int: "integer",
        float: "number",
        list: "array",
        dict: "object",
    }.get(type(v), type(v).__name__)


@checker("EXECUTION_TASK_SUPPORT")
def check_execution(ctx: ToolCtx) -> None:
    ex = ctx.raw.get("execution")
    if ex is None:
        return
    if not isinstance(ex, dict):
        ctx.emit("EXECUTION_TASK_SUPPORT", "/execution", "execution must be an object")
        return
    for key in ex:
        if key != "taskSupport":
            ctx.emit(
                "EXECUTION_TASK_SUPPORT",
                f"/execution/{esc(str(key))}",
                _unknown_execution(str(key)),
                key=True,
            )
    ts = ex.get("taskSupport")
    if ts is not None and ts not in _TASK_SUPPORT:
        ctx.emit(
            "EXECUTION_TASK_SUPPORT",
            "/execution/taskSupport",
            f"execution.taskSupport {ts!r} must be forbidden, optional or required",
        )


def _unknown_execution(key: str) -> str:
    """A member of ``execution`` the spec does not define (``ToolExecution`` has only
    ``taskSupport``): the tool would run as a plain call and ``tools/list`` serve the typo."""
    import difflib  # only on this rare path

    close = difflib.get_close_matches(key.lower(), ["tasksupport"], n=1, cutoff=0.6)
    hint = " (did you mean 'taskSupport'?)" if close else ""
    if key.lower() in ("ttl", "keepseconds", "timeout"):
        hint = " (a task's lifetime is server.tasks.keepSeconds)"
    return f"unknown execution member {key!r}{hint}; execution has only taskSupport"


@checker("SERVER_NAME_BLANK", "MANIFEST_NO_TOOLS", scope="manifest")
def check_server(ctx: ManifestCtx) -> None:
    if not ctx.manifest.tools:
        ctx.emit(
            "MANIFEST_NO_TOOLS",
            "/tools" if isinstance(ctx.manifest.raw, dict) else "",
            "the manifest defines no tools",
        )
    raw = ctx.manifest.raw
    server = raw.get("server") if isinstance(raw, dict) else None
    if not isinstance(server, dict):
        return
    name = server.get("name")
    if isinstance(name, str) and not name.strip():
        ctx.emit("SERVER_NAME_BLANK", "/server/name", "the server name is blank")
