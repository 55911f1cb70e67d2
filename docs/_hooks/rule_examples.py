"""The example findings of the rules reference (``reference.py``, the mkdocs hook): for each
rule, an input and the finding the real checker reports on it, from the rule's case in the
test tables (``tests/check/test_check_rules.py``, ``tests/breaking/test_breaking_rules.py``)
or, for the rules the manifest loader emits and the lint rules that read files beside the
manifest, from the small inputs of ``FILE_EXAMPLES``. A rule whose example stops producing
its finding raises (the build fails)."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import textwrap
from pathlib import Path
from types import ModuleType

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


def fence(text: str, lang: str = "") -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}\n"


def example_findings() -> dict[str, tuple[str, str]]:
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
                "`m.yaml`:\n\n" + fence(source, "yaml"),
                text_line(found[0], related_label="see"),
            )

    breaking = _module(REPO / "tests" / "breaking" / "test_breaking_rules.py", "_docs_breaking")
    base_link = "[the base manifest of the breaking tests](#the-base-manifest)"
    for base, cases, label in (
        (breaking.BASE, breaking.CASES, base_link),
        (breaking.SURFACE, breaking.SURFACE_CASES, base_link),
        (breaking.APPS, breaking.APPS_CASES, "`APPS` in tests/breaking/test_breaking_rules.py"),
        (
            breaking.DISCOVERY,
            breaking.DISCOVERY_CASES,
            "`DISCOVERY` in tests/breaking/test_breaking_rules.py",
        ),
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
                    f"`old.yaml` ({label}) changed to `new.yaml` by:\n\n" + fence(change, "diff"),
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
                f"`{n}`:\n\n" + fence(b, "markdown") for n, b in breaking.SKILL_FILES.items()
            )
            out[rule_id] = (
                "`old/m.yaml`:\n\n"
                + fence(breaking.SKILLS, "yaml")
                + "\n"
                + files
                + "\nchanged to `new/m.yaml` by:\n\n"
                + fence(change, "diff"),
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
            shown = "`m.yaml`:\n\n" + fence(text, "yaml")
            for name, body in files.items():
                lang = "toml" if name.endswith(".toml") else "yaml"
                lang = "markdown" if name.endswith(".md") else lang
                shown += f"\n`{name}`:\n\n" + fence(body, lang)
            finding = text_line(found[0], related_label="see")
            out[rule_id] = (shown, finding.replace(str(d), "/home/me/project"))
    return out


def breaking_base(rule_id: str) -> str:
    """The manifest the breaking example of ``rule_id`` changes (``example_findings`` loaded
    the breaking tests)."""
    module = sys.modules["_docs_breaking"]
    surface = {c[0] for c in module.SURFACE_CASES}
    return str(module.SURFACE if rule_id in surface else module.BASE)
