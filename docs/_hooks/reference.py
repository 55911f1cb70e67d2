"""mkdocs hook: the reference pages that come from the code, written at build time (never
checked in, so they cannot go stale).

* ``reference/rules/index.md`` and one page per rule (``reference/rules/<ID>.md``) from the rule
  registry (``mcpgen.check.catalog``): id, category, default severity, whether it is on by
  default, revisions, purpose, why it has that default, and an example finding. The example is
  produced by running the real checker on the rule's case from the test tables
  (``tests/check/test_check_rules.py``, ``tests/breaking/test_breaking_rules.py``) or, for the
  rules the manifest loader emits, on small inputs: ``rule_examples`` (beside this file; mkdocs
  puts this folder on ``sys.path`` while it loads the hook). A rule whose example stops
  producing its finding fails the build.
* ``reference/manifest-schema.md`` from ``schema/manifest.schema.json``.
* ``reference/commands.md``'s exit-code table, from ``mcpgen.exitcodes`` (where the page says
  ``<!-- mcpgen exit codes -->``).
* ``lean-engine.md``: a placeholder only while the real page (another change) is not in docs/.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files
from rule_examples import breaking_base, example_findings, fence

REPO = Path(__file__).resolve().parents[2]


def _rule_pages() -> dict[str, str]:
    from mcpgen.check import catalog
    from mcpgen.check.registry import CATEGORIES, describe_revisions

    rules = catalog.load_all()
    examples = example_findings()
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
                page.append("\nis reported as:\n\n" + fence(finding, "text"))
            else:
                page.append(
                    "The base manifest of the breaking tests has no output bounds to widen; "
                    "`tests/breaking/test_breaking_rules.py::test_output_bound_widened` is its "
                    "case.\n"
                )
            if category == BREAKING_CATEGORY:
                page.append(
                    "\n## The base manifest\n\nThe breaking examples change this manifest:\n\n"
                    + fence(breaking_base(r.id), "yaml")
                )
            page.append("\n[All rules](index.md)\n")
            pages[f"reference/rules/{r.id}.md"] = "\n".join(page)
    pages["reference/rules/index.md"] = "\n".join(index) + "\n"
    return pages


BREAKING_CATEGORY = "breaking"


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
    out.append(fence(json.dumps(schema, indent=2), "json"))
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


EXIT_CODES_MARKER = "<!-- mcpgen exit codes -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if RUNTIME_API_MARKER in markdown:
        return markdown.replace(RUNTIME_API_MARKER, _runtime_api())
    if EXIT_CODES_MARKER in markdown:
        from mcpgen.exitcodes import markdown_table

        return markdown.replace(EXIT_CODES_MARKER, markdown_table())
    return markdown


def on_files(files: Files, config: Any) -> Files:
    generated = _rule_pages()
    generated["reference/manifest-schema.md"] = _schema_page()
    if files.get_file_from_path("lean-engine.md") is None:
        generated["lean-engine.md"] = LEAN_PLACEHOLDER
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files
