"""mkdocs hook: the reference pages that come from the code, written at build time (never
checked in, so they cannot go stale).

* ``reference/rules/index.md`` and one page per rule (``reference/rules/<ID>.md``) from the rule
  registry (``mcpgen.check.catalog``): id, category, default severity, whether it is on by
  default, revisions, purpose, why it has that default, and an example finding. The example is
  produced here by running the real checker on the rule's case from the test tables
  (``tests/check/test_check_rules.py``, ``tests/breaking/test_breaking_rules.py``) or, for the
  rules the manifest loader emits, on the small inputs below. A rule whose example stops
  producing its finding fails the build.
* ``reference/manifest-schema.md`` from ``schema/manifest.schema.json``.
* ``lean-engine.md``: a placeholder only while the real page (another change) is not in docs/.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import sys
import tempfile
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parents[2]

# Inputs of the rules the manifest loader emits, and of lint rules that read files beside the
# manifest: (those files, the manifest's text).
FILE_EXAMPLES: dict[str, tuple[dict[str, str], str]] = {
    "INPUT_UNREADABLE": ({}, "tools: [\n  - name: a\n"),
    "RESOURCE_FILE": (
        {},
        "tools: []\nresources:\n  - uri: docs://guide\n    name: guide\n    file: ../guide.md\n",
    ),
    "MANIFEST_SCHEMA": ({}, "server:\n  name: notes\n"),
    "SKILL_FOLDER": ({}, "tools: []\nskills:\n  - path: skills/pdf\n"),
    "SKILL_FRONTMATTER": (
        {"pdf/SKILL.md": "# PDF\n\nExtract text from PDF files.\n"},
        "tools: []\nskills:\n  - path: pdf\n",
    ),
    "SKILL_NAME": (
        {"pdf/SKILL.md": "---\nname: PDF_Tools\ndescription: Work with PDF files.\n---\n"},
        "tools: []\nskills:\n  - path: pdf\n",
    ),
    "SKILL_DESCRIPTION": (
        {
            "pdf/SKILL.md": "---\nname: pdf\ndescription: "
            + "Work with PDF files. " * 60
            + "\n---\n"
        },
        "tools: []\nskills:\n  - path: pdf\n",
    ),
    "SKILL_NAME_UNIQUE": (
        {"pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDF files.\n---\n\n# PDF\n"},
        "tools: []\nskills:\n  - path: pdf\n  - path: ./pdf/\n",
    ),
    "SKILL_URI_TAKEN": (
        {"pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDF files.\n---\n"},
        "tools: []\nresources:\n  - uri: skill://pdf/SKILL.md\n    name: mine\n    text: hi\n"
        "skills:\n  - path: pdf\n",
    ),
    "SKILL_METADATA_RESERVED": (
        {
            "pdf/SKILL.md": "---\nname: pdf\ndescription: Work with PDF files.\nmetadata:\n"
            "  io.modelcontextprotocol/level: 1\n---\n"
        },
        "tools: []\nskills:\n  - path: pdf\n",
    ),
    "DUPLICATE_KEY": (
        {},
        "tools:\n  - name: a\n    name: b\n    inputSchema: {type: object}\n",
    ),
    "YAML_IMPLICIT_TYPE": (
        {},
        "tools:\n  - name: toggle\n    inputSchema:\n      type: object\n"
        "      properties:\n        mode: {type: string, default: on}\n",
    ),
    "YAML_TIMESTAMP": (
        {},
        "tools:\n  - name: since\n    inputSchema:\n      type: object\n"
        "      properties:\n        day: {type: string, default: 2025-01-31}\n",
    ),
    "REF_NETWORK": (
        {},
        "tools:\n  - name: a\n    inputSchema: {$ref: 'https://example.com/a.json'}\n",
    ),
    "REF_UNRESOLVED": ({}, "tools:\n  - name: a\n    inputSchema: {$ref: '#/$defs/Nope'}\n"),
    "REF_OUTSIDE_ROOT": (
        {},
        "tools:\n  - name: a\n    inputSchema: {$ref: '../outside.json'}\n",
    ),
    "REF_CYCLE": (
        {"a.yaml": "$ref: b.yaml\n", "b.yaml": "$ref: a.yaml\n"},
        "tools:\n  - name: a\n    inputSchema: {$ref: a.yaml}\n",
    ),
    "REGISTRY_VERSION_AGREEMENT": (
        {"pyproject.toml": '[project]\nname = "weather"\nversion = "1.0.1"\n'},
        "server:\n  name: weather\n  version: 1.0.0\n  registry: io.github.user/weather\n"
        "tools: []\n",
    ),
    "MANIFEST_REVISION_UNKNOWN": (
        {},
        "protocol: [1999-01-01]\ntools:\n  - name: a\n    inputSchema: {type: object}\n",
    ),
}


def _module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _fence(text: str, lang: str = "") -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}\n"


def _examples() -> dict[str, tuple[str, str]]:
    """Rule id -> (the input, as Markdown, the finding as `mcpgen check`/`breaking` print it)."""
    for p in (REPO, REPO / "tests" / "check"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    from mcpgen.check import catalog
    from mcpgen.check.breaking import compare
    from mcpgen.check.config import RuleConfig
    from mcpgen.check.registry import BREAKING
    from mcpgen.check.runner import active_rules, check_file
    from mcpgen.diagnostics import sort_diagnostics
    from mcpgen.manifest.load import load_manifest_text
    from mcpgen.manifest.model import KNOWN_REVISIONS
    from mcpgen.report import text_line

    catalog.load_all()
    out: dict[str, tuple[str, str]] = {}

    lint_cases = _module(REPO / "tests" / "check" / "test_check_rules.py", "_docs_lint_cases")
    for rule_id, text, expected in lint_cases.CASES:
        if rule_id in out or not expected:
            continue
        source = textwrap.dedent(text).lstrip("\n")
        found = [d for d in lint_cases.lint(text) if d.rule_id == rule_id]
        if found:
            out[rule_id] = (
                "`m.yaml`:\n\n" + _fence(source, "yaml"),
                text_line(found[0], related_label="see"),
            )

    breaking = _module(REPO / "tests" / "breaking" / "test_breaking_rules.py", "_docs_breaking")
    base_link = "[the base manifest of the breaking tests](#the-base-manifest)"
    for base, cases, label in (
        (breaking.BASE, breaking.CASES, base_link),
        (breaking.SURFACE, breaking.SURFACE_CASES, base_link),
        (breaking.APPS, breaking.APPS_CASES, "`APPS` in tests/breaking/test_breaking_rules.py"),
    ):
        for rule_id, reps, _expected in cases:
            if rule_id in out:
                continue
            new = base
            for a, b in reps:
                new = new.replace(a, b)
            old_m = load_manifest_text(base, "old.yaml").manifest
            new_m = load_manifest_text(new, "new.yaml").manifest
            rules = active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig())
            found = [
                d for d in sort_diagnostics(compare(old_m, new_m, rules)) if d.rule_id == rule_id
            ]
            if found:
                change = "\n".join(
                    f"- {a.strip() or '(nothing)'}\n+ {b.strip() or '(removed)'}" for a, b in reps
                )
                out[rule_id] = (
                    f"`old.yaml` ({label}) changed to `new.yaml` by:\n\n" + _fence(change, "diff"),
                    text_line(found[0]),
                )

    with tempfile.TemporaryDirectory() as tmp:
        for rule_id, reps, removed, _expected in breaking.SKILL_CASES:
            old_p, new_p = breaking.skill_sides(Path(tmp) / rule_id, reps, removed)
            found = [d for d in breaking.compare_files(old_p, new_p) if d.rule_id == rule_id]
            if not found:
                raise RuntimeError(f"docs: the example of {rule_id} no longer finds it")
            change = "\n".join(
                [f"- {a.strip()}\n+ {b.strip() or '(removed)'}" for a, b in reps]
                + [f"- {name}\n+ (file removed)" for name in removed]
            )
            files = "\n".join(
                f"`{n}`:\n\n" + _fence(b, "markdown") for n, b in breaking.SKILL_FILES.items()
            )
            out[rule_id] = (
                "`old/m.yaml`:\n\n"
                + _fence(breaking.SKILLS, "yaml")
                + "\n"
                + files
                + "\nchanged to `new/m.yaml` by:\n\n"
                + _fence(change, "diff"),
                text_line(found[0]).replace(str(Path(tmp) / rule_id) + "/", ""),
            )
        for rule_id, (files, text) in FILE_EXAMPLES.items():
            d = Path(tmp) / rule_id / "project"
            d.mkdir(parents=True)
            for name, body in files.items():
                (d / name).parent.mkdir(parents=True, exist_ok=True)
                (d / name).write_text(body)
            (d.parent / "outside.json").write_text('{"type": "object"}')
            (d.parent / "guide.md").write_text("A guide.\n")
            (d / "m.yaml").write_text(text)
            here = os.getcwd()
            os.chdir(d)
            try:
                result = check_file("m.yaml", RuleConfig())
            finally:
                os.chdir(here)
            found = [x for x in result.diagnostics if x.rule_id == rule_id]
            if not found:
                raise RuntimeError(f"docs: the example of {rule_id} no longer finds it")
            shown = "`m.yaml`:\n\n" + _fence(text, "yaml")
            for name, body in files.items():
                lang = "toml" if name.endswith(".toml") else "yaml"
                lang = "markdown" if name.endswith(".md") else lang
                shown += f"\n`{name}`:\n\n" + _fence(body, lang)
            finding = text_line(found[0], related_label="see")
            out[rule_id] = (shown, finding.replace(str(d), "/home/me/project"))
    return out


def _rule_pages() -> dict[str, str]:
    from mcpgen.check import catalog
    from mcpgen.check.registry import CATEGORIES, describe_revisions

    rules = catalog.load_all()
    examples = _examples()
    missing = sorted(set(rules) - set(examples) - {"OUTPUT_BOUND_NO_WIDEN"})
    if missing:
        raise RuntimeError(f"docs: rules without an example finding: {missing}")
    titles = {
        "load": "Loading the manifest",
        "lint": "`mcpgen check`",
        "breaking": "`mcpgen breaking` and `mcpgen drift`",
    }
    index = [
        "# Rules\n",
        "Every rule `mcpgen check`, `mcpgen breaking` and the manifest loader can emit, from the "
        "rule registry (`mcpgen/check/registry.py`; `mcpgen rules` prints the same table). Each "
        "rule has a page with its purpose, why it has its default, and an example finding "
        "produced by the checker when this site was built.\n",
        "A rule's severity can be changed, and a rule turned on or off, in `[tool.mcpgen]` or on "
        "the command line; a finding can be silenced on its line with "
        "`# mcpgen: ignore RULE_ID`.\n",
    ]
    pages: dict[str, str] = {}
    for category in CATEGORIES:
        index.append(f"\n## {titles.get(category, category)}\n")
        index.append("| rule | default | revisions | purpose |\n|---|---|---|---|")
        for r in rules.values():
            if r.category != category:
                continue
            default = r.severity.label if r.default_enabled else f"off ({r.severity.label})"
            purpose = r.purpose.replace("|", "\\|")
            index.append(
                f"| [`{r.id}`]({r.id}.md) | {default} | {describe_revisions(r.revisions)} | "
                f"{purpose} |"
            )
            on_by_default = "yes" if r.default_enabled else "no (`enable` turns it on)"
            page = [
                f"# {r.id}\n",
                f"{r.purpose}\n",
                "| property | value |\n|---|---|",
                f"| category | {titles.get(category, category)} |",
                f"| default severity | {r.severity.label} |",
                f"| on by default | {on_by_default} |",
                f"| revisions | {describe_revisions(r.revisions)} |",
            ]
            if r.aliases:
                page.append(f"| former ids | {', '.join(f'`{a}`' for a in r.aliases)} |")
            page.append(f"\n## Why this default\n\n{r.why}\n")
            page.append("## Example finding\n")
            if r.id in examples:
                shown, finding = examples[r.id]
                page.append(shown)
                page.append("\nis reported as:\n\n" + _fence(finding, "text"))
            else:
                page.append(
                    "The base manifest of the breaking tests has no output bounds to widen; "
                    "`tests/breaking/test_breaking_rules.py::test_output_bound_widened` is its "
                    "case.\n"
                )
            if category == BREAKING_CATEGORY:
                page.append(
                    "\n## The base manifest\n\nThe breaking examples change this manifest:\n\n"
                    + _fence(_breaking_base(r.id), "yaml")
                )
            page.append("\n[All rules](index.md)\n")
            pages[f"reference/rules/{r.id}.md"] = "\n".join(page)
    pages["reference/rules/index.md"] = "\n".join(index) + "\n"
    return pages


BREAKING_CATEGORY = "breaking"


def _breaking_base(rule_id: str) -> str:
    module = sys.modules["_docs_breaking"]
    surface = {c[0] for c in module.SURFACE_CASES}
    return str(module.SURFACE if rule_id in surface else module.BASE)


def _type_of(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{name.lower()})"
    if "type" in schema:
        t = schema["type"]
        return " or ".join(t) if isinstance(t, list) else str(t)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(_type_of(s) for s in schema[key])
    if "enum" in schema:
        return "one of " + ", ".join(f"`{v}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    return "any"


def _cell(text: str) -> str:
    return html.escape(" ".join(text.split())).replace("|", "\\|")


def _properties(schema: dict[str, Any]) -> list[str]:
    props = schema.get("properties", {})
    if not props:
        return []
    required = set(schema.get("required", []))
    rows = ["| key | type | required | description |", "|---|---|---|---|"]
    for key, sub in props.items():
        if not isinstance(sub, dict):
            continue
        desc = _cell(sub.get("description", ""))
        rows.append(f"| `{key}` | {_type_of(sub)} | {'yes' if key in required else ''} | {desc} |")
    return rows + [""]


def _schema_page() -> str:
    path = REPO / "schema" / "manifest.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    out = [
        "# Manifest schema\n",
        f"Generated from `schema/manifest.schema.json` ({schema.get('$schema', '')}) when this "
        "site was built. Editors that speak the `yaml-language-server` comment use the same file "
        "for completion and checks; `mcpgen check` reports a mismatch as "
        "[`MANIFEST_SCHEMA`](rules/MANIFEST_SCHEMA.md).\n",
    ]
    if schema.get("description"):
        out.append(" ".join(schema["description"].split()) + "\n")
    out.append("## The top level\n")
    out += _properties(schema)
    for name, sub in schema.get("$defs", {}).items():
        out.append(f"## {name}\n")
        if isinstance(sub, dict):
            if sub.get("description"):
                out.append(_cell(sub["description"]) + "\n")
            rows = _properties(sub)
            out += rows if rows else [f"Type: {_type_of(sub)}\n"]
    out.append("## The schema in full\n")
    out.append(_fence(json.dumps(schema, indent=2), "json"))
    return "\n".join(out)


LEAN_PLACEHOLDER = """# The lean engine

This page (the runtime's lean engine and its benchmarks) is being written in another change; the
[benchmarks](explanation/benchmarks.md) page has the measured tables meanwhile.
"""


RUNTIME_API_MARKER = "<!-- mcpgen_runtime public API -->"


def _runtime_api() -> str:
    """A mkdocstrings block per public name of ``mcpgen_runtime``, in the order of its stub
    (``runtime/mcpgen_runtime/__init__.pyi``, the one list of its public API). The content
    blocks are the generated wire types: the wire types page covers them."""
    stub = (REPO / "runtime" / "mcpgen_runtime" / "__init__.pyi").read_text(encoding="utf-8")
    out = []
    for module, name in re.findall(r"^from (\.[\w.]*) import (\w+) as \2$", stub, re.M):
        if module == ".content" or name.startswith("__"):
            continue
        out.append(f"::: mcpgen_runtime{module}.{name}\n")
    if len(out) < 30:
        raise RuntimeError("docs: the runtime's stub lists fewer public names than expected")
    return "\n".join(out)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if RUNTIME_API_MARKER in markdown:
        return markdown.replace(RUNTIME_API_MARKER, _runtime_api())
    return markdown


def on_files(files: Files, config: Any) -> Files:
    generated = _rule_pages()
    generated["reference/manifest-schema.md"] = _schema_page()
    if files.get_file_from_path("lean-engine.md") is None:
        generated["lean-engine.md"] = LEAN_PLACEHOLDER
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files
