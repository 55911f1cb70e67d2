"""Model-API compatibility profiles: what each provider's function-calling API accepts in a
tool's input schema, as data. `mcpgen check --target NAME` (or ``target = [...]`` in
``[tool.mcpgen.check]``) turns a profile's rules on; they are off otherwise.

A provider change is a one-line edit here: a rule's severity, its source, or a keyword in one of
the keyword tables below. The checkers (``rules_profiles.py``) only read these tables.

Sources. Each rule names where its constraint comes from and when that was read:
- the provider's own SDK, at a pinned version, where the SDK rewrites or refuses the shape before
  sending it (the code the provider ships is the most precise statement of what its API takes);
- the documentation page that SDK points to;
- the public issues where users hit the 400.
The providers' documentation sites themselves were not reachable from this workplace (only package
registries are), so no rule quotes a page that was not read.
"""

from __future__ import annotations

from typing import NamedTuple

from mcpgen_runtime.rules import Severity

READ = "2026-11-25"
"""The day the sources below were read."""

OPENAI_SDK = "openai 3.57.0 (PyPI), openai/lib/_pydantic.py `_ensure_strict_json_schema`"
OPENAI_DOC = "https://developers.openai.com/api/docs/guides/function-calling"
"""The page `FunctionDefinition.strict`'s docstring (openai/types/shared/) points to."""
ANTHROPIC_SDK = "anthropic 2.14.0 (PyPI), anthropic/lib/_parse/_transform.py `transform_schema`"
GEMINI_SDK = "google-genai 3.6.1 (PyPI)"


class ProfileRule(NamedTuple):
    id: str
    target: str
    severity: Severity
    purpose: str
    source: str

    @property
    def why(self) -> str:
        return f"Off unless `--target {self.target}`. Source (read {READ}): {self.source}"


class Profile(NamedTuple):
    target: str
    provider: str
    applies: str
    supersedes: tuple[str, ...] = ()
    """Default rules this profile's rules restate with a provider citation: off while it is on."""


PROFILES: dict[str, Profile] = {
    p.target: p
    for p in (
        Profile(
            "openai-strict",
            "OpenAI",
            "function tools with `strict: true` (Structured Outputs)",
        ),
        Profile(
            "anthropic",
            "Anthropic",
            "the Messages API's `tools[].input_schema` (and clients that drop such tools)",
            supersedes=("INPUT_SCHEMA_ROOT_COMBINATOR",),
        ),
        Profile(
            "anthropic-strict",
            "Anthropic",
            "strict tool use / structured outputs (the SDK's `transform_schema`)",
        ),
        Profile(
            "gemini",
            "Google Gemini",
            "`FunctionDeclaration.parameters` (the OpenAPI-subset `Schema`)",
        ),
    )
}

E, W = Severity.ERROR, Severity.WARNING

RULES: tuple[ProfileRule, ...] = (
    # --- openai-strict ---------------------------------------------------------------------
    ProfileRule(
        "OPENAI_STRICT_ADDITIONAL_PROPERTIES",
        "openai-strict",
        E,
        "Every object schema says `additionalProperties: false`.",
        f"{OPENAI_SDK} sets it on every object that lacks it before a strict call; {OPENAI_DOC}.",
    ),
    ProfileRule(
        "OPENAI_STRICT_ALL_REQUIRED",
        "openai-strict",
        E,
        "Every property is listed in `required` (an optional one is written as nullable).",
        f"{OPENAI_SDK} rewrites `required` to every property name; {OPENAI_DOC}.",
    ),
    ProfileRule(
        "OPENAI_STRICT_REF_SIBLINGS",
        "openai-strict",
        E,
        "A `$ref` stands alone: no sibling keywords next to it.",
        f'{OPENAI_SDK}: "we can\'t use `$ref`s if there are also other properties defined", so '
        f"the SDK inlines such refs; {OPENAI_DOC}.",
    ),
    ProfileRule(
        "OPENAI_STRICT_DISCOVERY_FREE_FORM",
        "openai-strict",
        E,
        "No meta-tool of the discovery mode takes a free-form object (`call_tool`'s "
        "`arguments` in mode `search`): use mode `code`, whose `execute` takes a string.",
        f"{OPENAI_SDK} closes every object (`additionalProperties: false`), so an object "
        "with no properties can only be `{}`: a strict call of `call_tool` passes no arguments "
        f"to the tool it calls; {OPENAI_DOC}.",
    ),
    # --- anthropic -------------------------------------------------------------------------
    ProfileRule(
        "ANTHROPIC_ROOT_COMBINATOR",
        "anthropic",
        E,
        "The input_schema root has no anyOf/oneOf/allOf/not/if/then/else.",
        "the issue trackers where users hit it: makenotion/notion-mcp-server#341, "
        "software-mansion/argent#773 (a top-level anyOf/oneOf is a 400 from Anthropic, Bedrock "
        "and Vertex) and anthropics/claude-code#95504 (root allOf/if/then tools dropped).",
    ),
    # --- anthropic-strict ------------------------------------------------------------------
    ProfileRule(
        "ANTHROPIC_STRICT_ADDITIONAL_PROPERTIES",
        "anthropic-strict",
        W,
        "No object allows extra properties (`additionalProperties` true or a schema).",
        f"{ANTHROPIC_SDK} replaces every object's `additionalProperties` with false.",
    ),
    ProfileRule(
        "ANTHROPIC_STRICT_KEYWORD",
        "anthropic-strict",
        W,
        "Only keywords strict mode enforces: others are moved into the description.",
        f"{ANTHROPIC_SDK} keeps the keywords in ANTHROPIC_STRICT_KEYWORDS and appends the rest "
        'to the description as text ("so that the model *might* follow them").',
    ),
    ProfileRule(
        "ANTHROPIC_STRICT_STRING_FORMAT",
        "anthropic-strict",
        W,
        "A string `format` is one strict mode supports.",
        f"{ANTHROPIC_SDK}: `SupportedStringFormats`; any other format becomes description text.",
    ),
    # --- gemini ----------------------------------------------------------------------------
    ProfileRule(
        "GEMINI_REF",
        "gemini",
        E,
        "No `$ref`/`$defs`: the schema is inline.",
        f"{GEMINI_SDK} google/genai/_transformers.py `process_schema` inlines `$defs` before "
        'sending ("Updates the schema ... to be API-compatible. Inlines the $defs"); clients '
        "that send them get a 400 (google-gemini/gemini-cli#13326, github/github-mcp-server#376).",
    ),
    ProfileRule(
        "GEMINI_ANYOF_IN_ITEMS",
        "gemini",
        E,
        "No `anyOf`/`oneOf` directly inside `items`.",
        "google-gemini/gemini-cli#13326 and danny-avila/LibreChat#13850, where users hit the 400.",
    ),
    ProfileRule(
        "GEMINI_PROPERTIES_ON_NON_OBJECT",
        "gemini",
        E,
        "`properties`/`required` only on `type: object`.",
        f"{GEMINI_SDK} google/genai/types.py `Schema.from_json_schema`: "
        "`related_field_names_by_type` allows `properties` and `required` for OBJECT only; "
        "gemini-cli#13326.",
    ),
    ProfileRule(
        "GEMINI_ADDITIONAL_PROPERTIES",
        "gemini",
        E,
        "No `additionalProperties` schema or `true` (the Gemini Developer API refuses it).",
        f"{GEMINI_SDK} google/genai/_transformers.py `_raise_for_unsupported_mldev_properties`: "
        '"additionalProperties is only supported in Gemini Enterprise Agent Platform mode, not '
        'in Gemini Developer API mode".',
    ),
    ProfileRule(
        "GEMINI_LITERAL_NOT_STRING",
        "gemini",
        E,
        "`enum` values and `const` are strings.",
        f'{GEMINI_SDK}: `Schema.enum` is `list[str]`, and `process_schema` raises "Literal '
        'values must be strings." for any other `const`.',
    ),
    ProfileRule(
        "GEMINI_KEYWORD",
        "gemini",
        W,
        "Only keywords Gemini's `Schema` has: others are dropped on the way to the model.",
        f"{GEMINI_SDK} google/genai/_mcp_utils.py `_filter_to_supported_schema` keeps only the "
        "fields of `types.JSONSchema` (GEMINI_KEYWORDS here) when it turns an MCP tool into a "
        "FunctionDeclaration.",
    ),
)

# --- keyword tables ---------------------------------------------------------------------------

GEMINI_KEYWORDS = frozenset(
    # google-genai 3.6.1 types.JSONSchema fields, camelCased, plus what process_schema rewrites
    "type format title description default items minItems maxItems enum properties required "
    "minProperties maxProperties minimum maximum minLength maxLength pattern additionalProperties "
    "anyOf oneOf uniqueItems $ref $defs const nullable example propertyOrdering".split()
)
ANTHROPIC_STRICT_KEYWORDS = frozenset(
    # anthropic 2.14.0 transform_schema: what it copies into the strict schema
    "$defs $ref type anyOf oneOf allOf enum const description title properties "
    "additionalProperties required format items minItems".split()
)
ANTHROPIC_STRICT_MIN_ITEMS = (0, 1)
"""`minItems` values transform_schema keeps."""
ANTHROPIC_STRICT_FORMATS = frozenset(
    "date-time time date duration email hostname uri ipv4 ipv6 uuid".split()
)
ANNOTATION_KEYWORDS = frozenset(
    ("$schema", "$id", "$comment", "examples", "deprecated", "readOnly", "writeOnly")
)
"""Keywords with nothing for a model to follow: never reported as dropped."""


def rules_for(targets: frozenset[str]) -> frozenset[str]:
    return frozenset(r.id for r in RULES if r.target in targets)


def superseded_by(targets: frozenset[str]) -> frozenset[str]:
    return frozenset(s for t in targets for s in PROFILES[t].supersedes)
