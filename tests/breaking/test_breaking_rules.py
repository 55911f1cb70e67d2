"""`mcpgen breaking`: one table row per rule (old manifest, new manifest, exact locations of
both sides). The command line (formats, exit codes, `--against GIT_REF`) is in
test_breaking_cli.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcpgen.check import catalog
from mcpgen.check.breaking import compare
from mcpgen.check.config import RuleConfig
from mcpgen.check.registry import BREAKING
from mcpgen.check.runner import active_rules
from mcpgen.diagnostics import sort_diagnostics
from mcpgen.manifest.load import load_manifest_text
from mcpgen.manifest.model import KNOWN_REVISIONS

BASE = """\
tools:
  - name: search
    description: Search.
    inputSchema:
      type: object
      properties:
        q: {type: string}
        limit: {type: number}
        mode: {type: string, enum: [fast, slow]}
        opts:
          type: object
          properties:
            lang: {type: string}
            region: {type: string}
      required: [q]
    outputSchema:
      type: object
      properties:
        hits:
          type: array
          items:
            type: object
            properties:
              url: {type: string}
              score: {type: number}
        total: {type: integer}
        state: {type: string, enum: [ok, partial]}
      required: [hits, total]
    annotations: {readOnlyHint: true}
  - name: write
    description: Write.
    inputSchema: {type: object, properties: {path: {type: string}}}
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, \
openWorldHint: false}
"""

# (rule, (old, new) replacements applied to BASE to get NEW, [(new line, col, old line, col)])
CASES: list[tuple[str, list[tuple[str, str]], list[tuple[int, int, int, int]]]] = [
    (
        "TOOL_NO_DELETE",
        [
            (
                "  - name: write\n    description: Write.\n    inputSchema: {type: object, "
                "properties: {path: {type: string}}}\n    annotations: {readOnlyHint: false, "
                "destructiveHint: false, idempotentHint: true, openWorldHint: false}\n",
                "",
            )
        ],
        [(1, 1, 30, 5)],
    ),
    ("TOOL_NO_DELETE", [("name: write", "name: write_file")], [(30, 11, 30, 5)]),
    (
        "INPUT_BOUND_NO_NARROW",
        [("limit: {type: number}", "limit: {type: number, maximum: 20}")],
        [(8, 40, 8, 16)],
    ),
    (
        "INPUT_BOUND_NO_NARROW",
        [("lang: {type: string}", "lang: {type: string, pattern: '^[a-z]{2}$', minLength: 2}")],
        [(13, 43, 13, 19), (13, 68, 13, 19)],
    ),
    (
        "INPUT_REQUIRED_NO_ADD",
        [("      required: [q]", "      required: [q, mode, extra]")],
        [(15, 21, 15, 7), (15, 27, 15, 7)],
    ),
    (
        "INPUT_REQUIRED_NO_ADD",
        [
            (
                "            region: {type: string}",
                "            region: {type: string}\n          required: [lang]",
            )
        ],
        [(15, 22, 10, 9)],
    ),
    (
        "INPUT_PROPERTY_NO_DELETE",
        [("            region: {type: string}\n", "")],
        [(12, 11, 14, 13)],
    ),
    ("INPUT_PROPERTY_NO_DELETE", [("        limit: {type: number}\n", "")], [(6, 7, 8, 9)]),
    (
        "INPUT_PROPERTY_SAME_TYPE",
        [
            ("limit: {type: number}", "limit: {type: integer}"),
            ("q: {type: string}", "q: {type: [string, 'null']}"),
            ("lang: {type: string}", "lang: {type: boolean}"),
        ],
        [(8, 23, 8, 16), (13, 26, 13, 19)],
    ),
    (
        "ENUM_VALUE_NO_DELETE",
        [
            ("enum: [fast, slow]", "enum: [fast, turbo]"),
            ("q: {type: string}", "q: {type: string, enum: [a, b]}"),
        ],
        [(7, 33, 7, 12), (9, 36, 9, 43)],
    ),
    (
        "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE",
        [
            ("      required: [q]", "      required: [q]\n      additionalProperties: false"),
            (
                "          type: object\n          properties:\n            lang",
                "          type: object\n          additionalProperties: false\n"
                "          properties:\n            lang",
            ),
        ],
        [(12, 33, 10, 9), (17, 29, 4, 5)],
    ),
    (
        "OUTPUT_SCHEMA_NO_DELETE",
        [
            (
                "    outputSchema:\n      type: object\n      properties:\n        hits:",
                "    x-old:\n      type: object\n      properties:\n        hits:",
            )
        ],
        [(2, 11, 16, 5)],
    ),
    (
        "OUTPUT_PROPERTY_NO_DELETE",
        [("              score: {type: number}\n", "")],
        [(23, 13, 25, 15)],
    ),
    (
        "OUTPUT_REQUIRED_NO_DELETE",
        [("      required: [hits, total]", "      required: [hits]")],
        [(28, 17, 28, 24)],
    ),
    (
        "OUTPUT_PROPERTY_SAME_TYPE",
        [
            ("url: {type: string}", "url: {type: [string, 'null']}"),
            ("total: {type: integer}", "total: {type: number}"),
            ("score: {type: number}", "score: {type: integer}"),
        ],
        [(24, 27, 24, 27), (26, 23, 26, 23)],
    ),
    (
        "OUTPUT_ENUM_VALUE_NO_ADD",
        [("enum: [ok, partial]", "enum: [ok, partial, failed]")],
        [(27, 51, 27, 37)],
    ),
    (
        "ANNOTATION_SAFETY_NO_WEAKEN",
        [("annotations: {readOnlyHint: true}", "annotations: {title: S}")],
        [(29, 18, 29, 33)],
    ),
    (
        "ANNOTATION_SAFETY_NO_WEAKEN",
        [
            (
                "destructiveHint: false, idempotentHint: true, openWorldHint: false",
                "idempotentHint: false",
            )
        ],
        [(33, 18, 33, 57), (33, 18, 33, 101), (33, 56, 33, 80)],
    ),
    (
        "TOOL_TASK_NO_REQUIRE",
        [
            (
                "    description: Write.\n",
                "    description: Write.\n    execution: {taskSupport: required}\n",
            )
        ],
        [(32, 30, 30, 11)],
    ),
    (
        "TOOL_SCOPE_NO_ADD",
        [
            (
                "    annotations: {readOnlyHint: true}",
                "    annotations: {readOnlyHint: true}\n    x-mcpgen: {scopes: [search:read]}",
            )
        ],
        [(30, 24, 2, 5)],
    ),
]


def _compare(old: str, new: str) -> list[tuple[int, int, str, int, int]]:
    o = load_manifest_text(old, "old.yaml").manifest
    n = load_manifest_text(new, "new.yaml").manifest
    assert o is not None and n is not None
    catalog.load_all()
    diags = sort_diagnostics(
        compare(o, n, active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig()))
    )
    return [(d.line, d.col, d.rule_id, d.related[0].line, d.related[0].col) for d in diags]


def _apply(reps: list[tuple[str, str]]) -> str:
    text = BASE
    for a, b in reps:
        assert text.count(a) == 1, a
        text = text.replace(a, b)
    return text


def test_identical_manifests_have_no_findings() -> None:
    assert _compare(BASE, BASE) == []


@pytest.mark.parametrize(("rule_id", "reps", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rule(
    rule_id: str, reps: list[tuple[str, str]], expected: list[tuple[int, int, int, int]]
) -> None:
    got = [g for g in _compare(BASE, _apply(reps)) if g[2] == rule_id]
    assert got == [(nl, nc, rule_id, ol, oc) for nl, nc, ol, oc in expected]


def test_every_breaking_rule_has_a_case() -> None:
    ids = {r.id for r in catalog.load_all().values() if r.category == BREAKING}
    # BASE has no output bounds to widen: test_output_bound_widened covers that rule
    covered = {c[0] for c in CASES} | {c[0] for c in SURFACE_CASES}
    covered |= {c[0] for c in SKILL_CASES}
    covered |= {c[0] for c in APPS_CASES}
    covered |= {c[0] for c in DISCOVERY_CASES}
    assert ids - covered == {"OUTPUT_BOUND_NO_WIDEN"}


def test_a_type_is_narrowed_only_when_it_accepts_less_of_the_same() -> None:
    """number -> integer and string|null -> string narrow an input; boolean -> string is
    another type altogether: "changed", not "narrowed"."""

    def messages(a: str, b: str) -> list[str]:
        o = load_manifest_text(BASE, "old.yaml").manifest
        n = load_manifest_text(_apply([(a, b)]), "new.yaml").manifest
        assert o is not None and n is not None
        catalog.load_all()
        active = active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig())
        return [d.message for d in compare(o, n, active) if d.rule_id == "INPUT_PROPERTY_SAME_TYPE"]

    assert messages("limit: {type: number}", "limit: {type: integer}") == [
        "tool 'search' input 'limit': type narrowed from number to integer"
    ]
    assert messages("lang: {type: string}", "lang: {type: boolean}") == [
        "tool 'search' input 'opts.lang': type changed from string to boolean"
    ]


def test_output_bound_widened() -> None:
    old = _apply([("total: {type: integer}", "total: {type: integer, maximum: 100}")])
    new = _apply([("total: {type: integer}", "total: {type: integer, maximum: 1000}")])
    assert _compare(old, new) == [(26, 41, "OUTPUT_BOUND_NO_WIDEN", 26, 41)]
    # a bound removed from an output widens it too; the same bound kept is not a change
    assert _compare(old, BASE) == [(26, 16, "OUTPUT_BOUND_NO_WIDEN", 26, 41)]
    assert _compare(old, old) == []


def test_bounds_that_accept_more_inputs_or_fewer_outputs_are_safe() -> None:
    old = _apply(
        [
            ("limit: {type: number}", "limit: {type: number, minimum: 1, maximum: 20}"),
            ("q: {type: string}", "q: {type: string, maxLength: 10, pattern: '^a'}"),
        ]
    )
    new = _apply(
        [
            ("limit: {type: number}", "limit: {type: number, exclusiveMinimum: 0}"),
            ("q: {type: string}", "q: {type: string, maxLength: 100}"),
            ("total: {type: integer}", "total: {type: integer, minimum: 0, maximum: 5}"),
        ]
    )
    assert _compare(old, new) == []
    # exclusive at the same value is narrower than inclusive
    inclusive = _apply([("limit: {type: number}", "limit: {type: number, maximum: 5}")])
    exclusive = _apply([("limit: {type: number}", "limit: {type: number, exclusiveMaximum: 5}")])
    assert [g[2] for g in _compare(inclusive, exclusive)] == ["INPUT_BOUND_NO_NARROW"]
    assert _compare(exclusive, inclusive) == []


def test_a_tool_becomes_task_only() -> None:
    """optional -> required breaks (located on both sides); the other ways do not."""

    def with_support(ts: str) -> str:
        return _apply(
            [
                (
                    "    description: Write.\n",
                    f"    description: Write.\n    execution: {{taskSupport: {ts}}}\n",
                )
            ]
        )

    got = _compare(with_support("optional"), with_support("required"))
    assert [g[2] for g in got] == ["TOOL_TASK_NO_REQUIRE"]
    assert got[0][:2] == (32, 30) and got[0][3:] == (32, 30)
    for old, new in (
        ("required", "optional"),
        ("required", "forbidden"),
        ("forbidden", "optional"),
    ):
        assert _compare(with_support(old), with_support(new)) == [], (old, new)
    assert _compare(with_support("required"), with_support("required")) == []


def test_safe_changes_are_not_breaking() -> None:
    new = _apply(
        [
            ("limit: {type: number}", "limit: {type: [number, string]}"),  # input widened
            ("enum: [fast, slow]", "enum: [fast, slow, turbo]"),  # input enum grows
            ("      required: [q]", "      required: []"),  # fewer required inputs
            ("annotations: {readOnlyHint: true}", "annotations: {readOnlyHint: true, title: S}"),
            (
                "        total: {type: integer}",
                "        total: {type: integer}\n        extra: {type: string}",
            ),
            ("score: {type: number}", "score: {type: integer}"),  # output narrowed
        ]
    )
    new += "  - name: added\n    inputSchema: {type: object}\n"
    assert _compare(BASE, new) == []


def test_refs_are_followed() -> None:
    old = (
        "tools:\n  - name: a\n    inputSchema:\n      type: object\n      properties:\n"
        "        p: {$ref: '#/$defs/P'}\n      $defs:\n"
        "        P: {type: object, properties: {x: {type: string}, y: {type: string}}}\n"
    )
    new = old.replace("x: {type: string}, ", "")
    assert [g[2] for g in _compare(old, new)] == ["INPUT_PROPERTY_NO_DELETE"]


SURFACE = (
    BASE
    + """\
resources:
  - {uri: "notes://today", name: today, text: hi}
  - {uri: "notes://all", name: all, text: hi}
resourceTemplates:
  - uriTemplate: "notes://day/{date}"
    name: day
    variables:
      date: {type: string, completions: ["2026-01-01"]}
prompts:
  - name: summarize
    arguments:
      - {name: topic, required: true, completions: [news, sports]}
      - {name: tone}
    messages: [{role: user, text: "Summarize {topic}"}]
  - {name: hello, messages: [{role: user, text: hi}]}
"""
)

SURFACE_CASES: list[tuple[str, list[tuple[str, str]], list[tuple[int, int, int, int]]]] = [
    (
        "RESOURCE_NO_DELETE",
        [('  - {uri: "notes://all", name: all, text: hi}\n', "")],
        [(34, 1, 36, 6)],
    ),
    (
        "RESOURCE_TEMPLATE_NO_DELETE",
        [("    name: day\n", "    name: days\n")],
        [(37, 1, 39, 5)],
    ),
    (
        "TEMPLATE_VARIABLES_NO_CHANGE",
        [('"notes://day/{date}"', '"notes://day/{year}/{date}"')],
        [(38, 18, 38, 18)],
    ),
    ("PROMPT_NO_DELETE", [("  - {name: hello,", "  - {name: hi,")], [(42, 1, 48, 6)]),
    (
        "PROMPT_ARGUMENT_REQUIRED_NO_ADD",
        [("{name: tone}", "{name: tone, required: true}")],
        [(46, 9, 46, 9)],
    ),
    ("PROMPT_ARGUMENT_NO_DELETE", [("      - {name: tone}\n", "")], [(43, 5, 46, 9)]),
    (
        "COMPLETION_NO_DELETE",
        [(', completions: ["2026-01-01"]', ""), (", completions: [news, sports]", "")],
        [(38, 5, 41, 28), (43, 5, 45, 39)],
    ),
]


@pytest.mark.parametrize(
    ("rule_id", "reps", "expected"), SURFACE_CASES, ids=[c[0] for c in SURFACE_CASES]
)
def test_surface_rule(
    rule_id: str, reps: list[tuple[str, str]], expected: list[tuple[int, int, int, int]]
) -> None:
    new = SURFACE
    for a, b in reps:
        assert new.count(a) == 1, a
        new = new.replace(a, b)
    got = [g for g in _compare(SURFACE, new) if g[2] == rule_id]
    assert got == [(nl, nc, rule_id, ol, oc) for nl, nc, ol, oc in expected]
    assert _compare(SURFACE, SURFACE) == []


def test_the_runtime_package_loads_its_comparisons_on_first_use() -> None:
    """``mcpgen_runtime.breaking`` imports only its rule table (``mcpgen check`` lists the
    rules on every commit); its public names still import from the package."""

    code = (
        "import sys, mcpgen_runtime.breaking as b\n"
        "print(sorted(m for m in sys.modules if m.startswith('mcpgen_runtime.breaking.')))\n"
        "from mcpgen_runtime.breaking import Entry, ToolRef, compare_surface, compare_tools\n"
        "names = ['BREAKING', 'RULES', 'Emit', 'Entry', 'ToolRef', 'compare_surface',\n"
        "         'compare_tools']\n"
        "print(compare_tools.__module__, ToolRef.__module__, sorted(b.__all__) == sorted(names))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = p.stdout.splitlines()
    assert first == "['mcpgen_runtime.breaking.rules']"
    assert second == "mcpgen_runtime.breaking.tools mcpgen_runtime.breaking.pairs True"


APPS = """\
tools:
  - name: show
    inputSchema: {type: object}
    outputSchema: {type: object}
    _meta: {ui: {resourceUri: "ui://m/card"}}
resources:
  - uri: ui://m/card
    name: card
    mimeType: text/html;profile=mcp-app
    text: "<!doctype html>"
    _meta:
      ui:
        permissions: {camera: {}, microphone: {}}
        csp: {connectDomains: ["https://api.example.com", "https://b.example.com"]}
"""
"""MCP Apps (mcpgen_runtime.breaking.apps): a tool, its view, the view's sandbox."""

APPS_CASES: list[tuple[str, list[tuple[str, str]], list[tuple[int, int, int, int]]]] = [
    (
        "VIEW_NO_DELETE",
        [('    _meta: {ui: {resourceUri: "ui://m/card"}}\n', ""), ("uri: ui://m/card", "uri: ui://m/x")],
        [(2, 5, 5, 18), (5, 1, 7, 5)],  # the tool's link; the view (not RESOURCE_NO_DELETE)
    ),
    ("VIEW_PERMISSION_NO_NARROW", [("camera: {}, ", ""), (', "https://b.example.com"', "")],
     [(13, 9, 13, 23), (14, 31, 14, 59)]),
    (
        "TOOL_VISIBILITY_NO_NARROW",
        [('resourceUri: "ui://m/card"}', 'resourceUri: "ui://m/card", visibility: [app]}')],
        [(5, 58, 5, 17)],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule_id", "reps", "expected"), APPS_CASES, ids=[c[0] for c in APPS_CASES]
)
def test_apps_rule(
    rule_id: str, reps: list[tuple[str, str]], expected: list[tuple[int, int, int, int]]
) -> None:
    new = APPS
    for a, b in reps:
        assert new.count(a) == 1, a
        new = new.replace(a, b)
    got = [g for g in _compare(APPS, new) if g[2] == rule_id]
    assert got == [(nl, nc, rule_id, ol, oc) for nl, nc, ol, oc in expected]
    assert _compare(APPS, APPS) == []


# -- skills (SEP-2640): folders beside the manifest, so each side is a directory -----------------

SKILLS = "tools: []\nskills:\n  - path: pdf\n  - path: forms\n"
SKILL_FILES = {
    "pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDF files.\n---\n",
    "pdf/references/FORMS.md": "# Forms\n",
    "forms/SKILL.md": "---\nname: forms\ndescription: Fill in forms.\n---\n",
}
SKILL_CASES: list[tuple[str, list[tuple[str, str]], list[str], list[tuple[int, int, int, int]]]] = [
    ("SKILL_NO_DELETE", [("  - path: forms\n", "")], [], [(2, 1, 4, 5)]),
    ("SKILL_FILE_NO_DELETE", [], ["pdf/references/FORMS.md"], [(3, 11, 3, 11)]),
]


def skill_sides(root: Path, reps: list[tuple[str, str]], removed: list[str]) -> tuple[Path, Path]:
    """``old/m.yaml`` (SKILLS and SKILL_FILES) and ``new/m.yaml`` (with ``reps`` applied and
    the ``removed`` files left out) under ``root``."""
    text = SKILLS
    for a, b in reps:
        assert text.count(a) == 1, a
        text = text.replace(a, b)
    for side, manifest, skip in (("old", SKILLS, []), ("new", text, removed)):
        for name, body in SKILL_FILES.items():
            if name not in skip:
                (root / side / name).parent.mkdir(parents=True, exist_ok=True)
                (root / side / name).write_text(body)
        (root / side / "m.yaml").write_text(manifest)
    return root / "old" / "m.yaml", root / "new" / "m.yaml"


def compare_files(old: Path, new: Path) -> list[Any]:
    from mcpgen.manifest.load import load_manifest

    o, n = load_manifest(old).manifest, load_manifest(new).manifest
    assert o is not None and n is not None
    catalog.load_all()
    return sort_diagnostics(compare(o, n, active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig())))


@pytest.mark.parametrize(
    ("rule_id", "reps", "removed", "expected"), SKILL_CASES, ids=[c[0] for c in SKILL_CASES]
)
def test_skill_rule(
    tmp_path: Path,
    rule_id: str,
    reps: list[tuple[str, str]],
    removed: list[str],
    expected: list[tuple[int, int, int, int]],
) -> None:
    old, new = skill_sides(tmp_path, reps, removed)
    got = [
        (d.line, d.col, d.rule_id, d.related[0].line, d.related[0].col)
        for d in compare_files(old, new)
    ]
    assert got == [(nl, nc, rule_id, ol, oc) for nl, nc, ol, oc in expected]
    assert compare_files(old, old) == []


# -- server.discovery (mcpgen_runtime.breaking.discovery) ---------------------------------------

DISCOVERY = """\
server:
  name: m
  discovery: {mode: search, listed: {tools: [a]}}
tools:
  - name: a
    inputSchema: {type: object}
  - name: b
    inputSchema: {type: object}
"""
DISCOVERY_CASES: list[tuple[str, list[tuple[str, str]], list[tuple[int, int, int, int]]]] = [
    ("DISCOVERY_META_NO_DELETE", [("mode: search", "mode: code")], [(3, 14, 3, 3)]),
    ("DISCOVERY_META_NO_DELETE", [("mode: search", "mode: all")], [(3, 14, 3, 3)] * 3),
    ("DISCOVERY_NO_UNLIST", [("tools: [a]", "tools: []")], [(3, 14, 3, 3)]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule_id", "reps", "expected"), DISCOVERY_CASES, ids=["to-code", "to-all", "unlist"]
)
def test_discovery_rule(
    rule_id: str, reps: list[tuple[str, str]], expected: list[tuple[int, int, int, int]]
) -> None:
    new = DISCOVERY
    for a, b in reps:
        new = new.replace(a, b)
    got = [g for g in _compare(DISCOVERY, new) if g[2] == rule_id]
    assert got == [(nl, nc, rule_id, ol, oc) for nl, nc, ol, oc in expected]
    assert _compare(DISCOVERY, DISCOVERY) == []


def test_all_to_search_unlists_every_tool_not_kept_listed() -> None:
    old = DISCOVERY.replace("mode: search", "mode: all")
    got = [g for g in _compare(old, DISCOVERY) if g[2].startswith("DISCOVERY")]
    assert [g[2] for g in got] == ["DISCOVERY_NO_UNLIST"]
