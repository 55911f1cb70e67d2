"""The official JSON-Schema-Test-Suite through mcpgen: each group's schema as one tool
parameter, ``check`` then ``server`` in process, and every case through the generated server's
argument path (``ToolsRuntime._checked_arguments``: jsonschema-rs, then the generated model).

The suite is never copied into the project: it is read from ``../shared/json-schema-test-suite``
(or ``$MCPGEN_SCHEMA_SUITE``), pinned by its upstream commit, each file checked against the
mirror's ``SHA256SUMS`` before it is used.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SUITE_URL = "https://github.com/json-schema-org/JSON-Schema-Test-Suite"
SUITE_COMMIT = "44401e0c046704b476ec9d2e2fccdaee618f259d"
PARAM = "value"

# Groups left out (file -> reason; (file, group description) -> reason). Groups whose schema
# names a remote document are not left out: ``check`` must refuse them, and ``server`` too.
SKIPPED_FILES = {
    "refRemote.json": "every group loads a remote document (http://localhost:1234/)",
}
SKIPPED_GROUPS = {
    ("vocabulary.json", "schema that uses custom metaschema with with no validation vocabulary"): (
        "a custom metaschema served from http://localhost:1234/ (never fetched)"
    ),
}


class NetworkUsed(AssertionError):
    """Raised by the ``no_network`` fixture for every socket opened or name looked up."""


def suite_dir() -> Path | None:
    env = os.environ.get("MCPGEN_SCHEMA_SUITE")
    cand = Path(env) if env else REPO.parent / "shared" / "json-schema-test-suite"
    return cand if (cand / "SHA256SUMS").is_file() else None


def _sums(root: Path) -> dict[str, str]:
    out = {}
    for line in (root / "SHA256SUMS").read_text().splitlines():
        digest, _, name = line.partition("  ")
        out[name] = digest
    return out


def load_groups(root: Path, draft: str) -> list[tuple[str, dict[str, Any]]]:
    """``(file, group)`` of ``tests/<draft>/*.json``, each file checked against SHA256SUMS."""
    sums = _sums(root)
    out = []
    for path in sorted((root / "tests" / draft).glob("*.json")):
        rel = path.relative_to(root).as_posix()
        data = path.read_bytes()
        if sums.get(rel) != hashlib.sha256(data).hexdigest():
            raise AssertionError(f"{rel}: not the pinned suite file (SHA256SUMS)")
        out.extend((path.name, g) for g in json.loads(data))
    return out


def skip_reason(file: str, group: dict[str, Any]) -> str | None:
    if file in SKIPPED_FILES:
        return SKIPPED_FILES[file]
    key = (file, group["description"])
    return SKIPPED_GROUPS.get(key)


def embed(schema: Any, uid: str) -> Any:
    """The group's schema as a parameter: an embedded resource of the tool's inputSchema (its
    own ``$id``, unless it names one, so that ``#...`` references keep meaning the group's
    schema)."""
    if isinstance(schema, dict) and "$id" not in schema:
        return {"$id": f"urn:mcpgen-suite:{uid}", **schema}
    return schema


DRAFT7_URI = "http://json-schema.org/draft-07/schema#"


def tool_entry(name: str, schema: Any, uid: str, draft: str = "draft2020-12") -> dict[str, Any]:
    root: dict[str, Any] = {"$schema": DRAFT7_URI} if draft == "draft7" else {}
    root |= {"type": "object", "properties": {PARAM: embed(schema, uid)}, "required": [PARAM]}
    return {"name": name, "description": "A JSON-Schema-Test-Suite group.", "inputSchema": root}


def manifest_text(tools: list[dict[str, Any]], draft: str = "draft2020-12") -> str:
    doc: dict[str, Any] = {"server": {"name": "suite", "version": "1.0.0"}, "tools": tools}
    if draft == "draft7":
        doc["protocol"] = ["2024-11-05", "2025-03-26"]
    return json.dumps(doc, indent=1)


@dataclass
class Table:
    groups: int = 0
    skipped: int = 0
    generated: int = 0
    refused_by_check: int = 0
    refused_by_server_only: list[str] = field(default_factory=list)
    cases: int = 0
    agreeing: int = 0
    valid_refused: list[str] = field(default_factory=list)
    invalid_accepted: list[str] = field(default_factory=list)
    client_disagrees: list[str] = field(default_factory=list)
    """Cases where the typed client's argument check says otherwise than the suite."""
    check_errors: dict[str, list[Any]] = field(default_factory=dict)
    """Group -> the errors ``check`` reported for it."""
    generated_although_refused: list[str] = field(default_factory=list)
    """Groups ``check`` refused that ``server`` generated nonetheless."""

    def row(self) -> str:
        return (
            f"groups {self.groups} (skipped {self.skipped}); generated {self.generated}; "
            f"refused by check {self.refused_by_check}; refused by server after check passed "
            f"{len(self.refused_by_server_only)}; cases {self.agreeing}/{self.cases} agree; "
            f"valid refused {len(self.valid_refused)}; invalid accepted "
            f"{len(self.invalid_accepted)}; client disagrees {len(self.client_disagrees)}"
        )


def check_errors(text: str, path: Path) -> list[Any]:
    """What ``mcpgen check`` reports as errors for the manifest ``text``."""
    from mcpgen.check.config import RuleConfig
    from mcpgen.check.runner import lint_loaded
    from mcpgen.diagnostics import Severity
    from mcpgen.manifest.load import load_manifest_text

    res = load_manifest_text(text, str(path))
    return [d for d in lint_loaded(res, RuleConfig()) if d.severity == Severity.ERROR]


@contextmanager
def generated(text: str, tmp: Path, package: str) -> Iterator[Any]:
    """Generate the server package for ``text`` (in process, as ``mcpgen server``), import its
    binding table, yield it; undo the import afterwards. Raises ``McpgenError``."""
    from tests.server.helpers import write_package

    manifest = tmp / f"{package}.json"
    manifest.write_text(text)
    out = tmp / f"{package}-out"
    write_package(manifest, out, package)
    with _imported(out, package):
        yield importlib.import_module(f"{package}._generated.server")


@contextmanager
def generated_client(text: str, tmp: Path, package: str) -> Iterator[Any]:
    """The typed client package for ``text`` (as ``mcpgen client``): its ``_generated``
    package (``tools.TOOLS``, ``models``)."""
    from tests.client.helpers import write_client

    manifest = tmp / f"{package}.json"
    manifest.write_text(text)
    out = tmp / f"{package}-out"
    write_client(manifest, out, package)
    with _imported(out, package):
        yield (
            importlib.import_module(f"{package}._generated.tools"),
            importlib.import_module(f"{package}._generated.models"),
        )


@contextmanager
def _imported(out: Path, package: str) -> Iterator[None]:
    sys.path.insert(0, str(out))
    try:
        yield
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


def client_verdict(tool: Any, model: Any, instance: Any) -> bool:
    """Whether the typed client sends ``{PARAM: instance}`` (``ClientTool.arguments``: the
    model, then the inputSchema by jsonschema-rs, before anything is sent)."""
    from mcpgen_runtime.client.errors import ArgumentsError

    try:
        tool.arguments(model, {PARAM: instance})
    except ArgumentsError:
        return False
    return True


def server_verdict(binding: Any, instance: Any) -> bool:
    """Whether the generated server's argument path admits ``{PARAM: instance}`` (the
    runtime's own ``_checked_arguments``: inputSchema by jsonschema-rs, then the model)."""
    from mcpgen_runtime.server.bindings import CompiledTool
    from mcpgen_runtime.server.tools import ToolsRuntime

    tool = CompiledTool(json.loads(binding.definition_json), binding, invoke=None)  # type: ignore[arg-type]
    _value, refused = ToolsRuntime._checked_arguments(tool, {PARAM: instance}, None)
    return refused is None


def _tool_name(i: int) -> str:
    return f"g{i:03d}"


def measure(root: Path, draft: str, tmp: Path, batch: int = 60) -> Table:
    """Run every group of ``tests/<draft>`` through check, server and the server's argument
    path; the table of what happened."""
    from mcpgen.errors import McpgenError

    table = Table()
    passing: list[tuple[int, str, dict[str, Any]]] = []
    for i, (file, group) in enumerate(load_groups(root, draft)):
        table.groups += 1
        if skip_reason(file, group) is not None:
            table.skipped += 1
            continue
        text = manifest_text([tool_entry(_tool_name(i), group["schema"], str(i), draft)], draft)
        errors = check_errors(text, tmp / f"c{i}.json")
        if errors:
            table.refused_by_check += 1
            table.check_errors[f"{file}: {group['description']}"] = errors
            try:
                with generated(text, tmp, f"refused_{draft.replace('-', '_')}_{i}"):
                    table.generated_although_refused.append(f"{file}: {group['description']}")
            except McpgenError:
                pass
            continue
        passing.append((i, file, group))
    counter = iter(range(10**6))

    def run(chunk: list[tuple[int, str, dict[str, Any]]]) -> None:
        tools = [tool_entry(_tool_name(i), g["schema"], str(i), draft) for i, _f, g in chunk]
        package = f"suite_{draft.replace('-', '_')}_{next(counter)}"
        try:
            text = manifest_text(tools, draft)
            with (
                generated(text, tmp, package) as server,
                generated_client(text, tmp, package + "_client") as (ctools, cmodels),
            ):
                bindings = {b.method: b for b in server.BINDINGS}
                by_name = {t.name: t for t in ctools.TOOLS}
                for i, file, group in chunk:
                    table.generated += 1
                    binding = bindings[_tool_name(i)]
                    ctool = by_name[_tool_name(i)]
                    cmodel = getattr(cmodels, binding.input_model.__name__)
                    for case in group["tests"]:
                        table.cases += 1
                        got = server_verdict(binding, case["data"])
                        where = f"{file}: {group['description']}: {case['description']}"
                        if client_verdict(ctool, cmodel, case["data"]) != case["valid"]:
                            table.client_disagrees.append(where)
                        if got == case["valid"]:
                            table.agreeing += 1
                        elif case["valid"]:
                            table.valid_refused.append(where)
                        else:
                            table.invalid_accepted.append(where)
        except McpgenError as exc:
            if len(chunk) == 1:
                i, file, group = chunk[0]
                table.refused_by_server_only.append(
                    f"{file}: {group['description']}: {str(exc)[:200]}"
                )
                return
            half = len(chunk) // 2
            run(chunk[:half])
            run(chunk[half:])

    for start in range(0, len(passing), batch):
        run(passing[start : start + batch])
    return table
