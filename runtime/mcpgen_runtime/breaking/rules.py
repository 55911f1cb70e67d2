"""The breaking-change rules: ids, default severities, purposes and reasons. ``mcpgen rules``
lists them with the generator's own (``mcpgen.check.breaking`` registers them)."""

from __future__ import annotations

from ..rules import Rule, Severity

__all__ = ["BREAKING", "RULES"]

BREAKING = "breaking"
"""The category of these rules."""


def _rule(rule_id: str, severity: Severity, purpose: str, why: str) -> Rule:
    return Rule(rule_id, BREAKING, severity, purpose, why=why)


_E, _W = Severity.ERROR, Severity.WARNING

_RULES: tuple[Rule, ...] = (
    _rule(
        "TOOL_NO_DELETE",
        _E,
        "Tools are not removed or renamed (clients and prompts call them by name).",
        "Existing clients, prompts and agents call the old name and fail.",
    ),
    _rule(
        "INPUT_REQUIRED_NO_ADD",
        _E,
        "No input parameter becomes required (existing calls that omit it would be rejected).",
        "Existing calls omit the parameter and are rejected.",
    ),
    _rule(
        "INPUT_PROPERTY_NO_DELETE",
        _E,
        "Input parameters are not removed (existing calls send them).",
        "Existing calls still send it; closed schemas reject them, open ones silently drop it.",
    ),
    _rule(
        "INPUT_PROPERTY_SAME_TYPE",
        _E,
        "An input parameter's type is not narrowed (values valid before stay valid).",
        "Values existing callers send stop validating.",
    ),
    _rule(
        "ENUM_VALUE_NO_DELETE",
        _E,
        "Input enum values are not removed and no enum is imposed on a free parameter.",
        "Values existing callers send stop validating.",
    ),
    _rule(
        "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE",
        _E,
        "An input object that accepted unknown keys does not start rejecting them "
        "(additionalProperties: false).",
        "Existing calls with extra keys are rejected.",
    ),
    _rule(
        "OUTPUT_SCHEMA_NO_DELETE",
        _E,
        "A tool's outputSchema is not removed (clients validate structuredContent with it).",
        "Clients that read structuredContent lose it.",
    ),
    _rule(
        "OUTPUT_PROPERTY_NO_DELETE",
        _E,
        "Output properties are not removed (clients read them).",
        "Clients that read the property fail.",
    ),
    _rule(
        "OUTPUT_REQUIRED_NO_DELETE",
        _E,
        "A required output property stays required (clients rely on it being present).",
        "Clients that rely on the property being present fail when it is absent.",
    ),
    _rule(
        "OUTPUT_PROPERTY_SAME_TYPE",
        _E,
        "An output property's type is not widened or changed (clients parse the old type).",
        "Clients parse the old type and fail on the new one.",
    ),
    _rule(
        "OUTPUT_ENUM_VALUE_NO_ADD",
        _W,
        "Output enums gain no values (strict clients reject unknown values).",
        "Only strict clients (exhaustive matches on the enum) fail; most pass unknown values "
        "through.",
    ),
    _rule(
        "ANNOTATION_SAFETY_NO_WEAKEN",
        _E,
        "Safety annotations are not weakened: readOnlyHint true->false, destructiveHint "
        "false->true, idempotentHint true->false, openWorldHint false->true (absent = "
        "false/true/false/true).",
        "Clients stop asking for confirmation of calls that now have side effects.",
    ),
    _rule(
        "TOOL_SCOPE_NO_ADD",
        _E,
        "A tool does not start needing an OAuth scope it did not need (x-mcpgen.scopes).",
        "Callers whose tokens lack the new scope are refused (403 insufficient_scope) and no "
        "longer see the tool in tools/list until they sign in again with it.",
    ),
    _rule(
        "TOOL_TASK_NO_REQUIRE",
        _E,
        "A tool does not become task-only (execution.taskSupport forbidden/optional -> required).",
        "Under the tasks extension a task-only tool answers -32021 to every client that does not "
        "declare the extension on its request (and -32601 to every client before 2026-07-28), "
        "so calls that worked fail.",
    ),
    _rule(
        "INPUT_BOUND_NO_NARROW",
        _E,
        "An input's bounds are not narrowed: minimum/maximum (and exclusive forms), "
        "minLength/maxLength, minItems/maxItems, minProperties/maxProperties, multipleOf, and no "
        "new or changed pattern or const.",
        "Values existing callers send stop validating.",
    ),
    _rule(
        "OUTPUT_BOUND_NO_WIDEN",
        _W,
        "An output's bounds are not widened (the same keywords, the other way).",
        "Clients that validate structuredContent against the schema they were built with "
        "(mcpgen's typed clients do) reject the new values; others pass them through.",
    ),
    _rule(
        "RESOURCE_NO_DELETE",
        _E,
        "Resources are not removed (clients and saved conversations read them by URI).",
        "Reads of the URI fail; references to it in conversations break.",
    ),
    _rule(
        "RESOURCE_TEMPLATE_NO_DELETE",
        _E,
        "Resource templates are not removed or renamed.",
        "Clients that build URIs from the template get errors reading them.",
    ),
    _rule(
        "TEMPLATE_VARIABLES_NO_CHANGE",
        _E,
        "A resource template keeps its variables (names and order).",
        "URIs that clients build from the old template stop matching.",
    ),
    _rule(
        "PROMPT_NO_DELETE",
        _E,
        "Prompts are not removed or renamed.",
        "Clients (and users' saved slash commands) get the old name and fail.",
    ),
    _rule(
        "PROMPT_ARGUMENT_REQUIRED_NO_ADD",
        _E,
        "No prompt argument becomes required.",
        "Existing requests that omit it are rejected.",
    ),
    _rule(
        "PROMPT_ARGUMENT_NO_DELETE",
        _W,
        "Prompt arguments are not removed.",
        "Clients still send it; the server ignores it, so the user's input is silently lost.",
    ),
    _rule(
        "COMPLETION_NO_DELETE",
        _W,
        "Completions offered for an argument or a template variable are not removed.",
        "Clients that offered suggestions to users stop offering any.",
    ),
    _rule(
        "SKILL_NO_DELETE",
        _E,
        "Skills are not removed or renamed (hosts key them by name and URI).",
        "Hosts that installed or approved the skill fail to load it; skills/get answers -32602.",
    ),
    _rule(
        "SKILL_FILE_NO_DELETE",
        _E,
        "No file is removed from a skill.",
        "The skill's SKILL.md and other files still name it; a host that reads it gets an "
        "error, and a cached copy fails verification against the new entry.",
    ),
    # MCP Apps (io.modelcontextprotocol/ui): breaking/apps.py
    _rule(
        "VIEW_NO_DELETE",
        _E,
        "MCP Apps views (ui:// resources) are not removed, and a tool keeps the view it opens.",
        "Hosts that preloaded the view, and conversations that show it, fail to read it; the "
        "tool's results lose their interface.",
    ),
    _rule(
        "VIEW_PERMISSION_NO_NARROW",
        _W,
        "A view keeps the permissions and CSP domains it was granted.",
        "The view's code that uses them (camera, a fetch to an API, an embedded frame) stops "
        "working in hosts that enforce the new, narrower sandbox.",
    ),
    _rule(
        "TOOL_VISIBILITY_NO_NARROW",
        _E,
        "A tool's _meta.ui.visibility keeps model and app access it had.",
        "Hosts hide the tool from the model, or refuse the view's calls to it: agents and "
        "views that call it fail.",
    ),
    # server.discovery: breaking/discovery.py
    _rule(
        "DISCOVERY_META_NO_DELETE",
        _E,
        "A discovery mode change keeps the meta-tools callers use (search_tools, "
        "get_tool_schemas, call_tool, execute).",
        "Agents and scripts that call the removed meta-tool by name fail (search to code "
        "removes call_tool, code to search removes execute, either to all removes them all).",
    ),
    _rule(
        "DISCOVERY_NO_UNLIST",
        _W,
        "A tool listed by tools/list stays listed (a change to mode search or code, or a tool "
        "dropped from server.discovery.listed, unlists tools).",
        "Every served tool stays callable by name, so existing calls keep working; but clients "
        "and models that choose tools from tools/list no longer see the unlisted ones until "
        "they search for them.",
    ),
)
RULES: dict[str, Rule] = {r.id: r for r in _RULES}
