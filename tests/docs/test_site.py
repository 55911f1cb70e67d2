"""The docs site builds with `mkdocs build --strict` (no broken link, no missing page, no warning),
and its generated reference pages come from the code: every command of the click group, every rule
of the registry, every public name of the runtime, the manifest schema."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.docs.pages import REPO

pytestmark = pytest.mark.slow


def build_site(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def shared_site(factory: pytest.TempPathFactory) -> Path:
    """The site, built once per test run (``mkdocs build --strict``) for this module and the
    browser's (tests/docs/test_browser.py), which only read it."""
    from tests.shared_once import once

    def build(folder: Path) -> None:
        started = time.monotonic()
        proc = build_site(folder / "site")
        assert proc.returncode == 0, proc.stderr
        pages = len(list((folder / "site").rglob("index.html")))
        print(f"site: {pages} pages in {time.monotonic() - started:.1f} s")

    return once(factory, "docs-site", build) / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_site(tmp_path_factory)


def _text(site: Path, relative: str) -> str:
    return (site / relative / "index.html").read_text(encoding="utf-8")


def test_every_command_is_in_the_command_reference(site: Path) -> None:
    from mcpgen.cli import _COMMANDS

    html = _text(site, "reference/commands")
    for name in _COMMANDS:
        assert f"mcpgen {name}" in html, name
    assert "--fail-on" in html and "--allow-external-refs" in html


def test_every_rule_has_a_page_with_its_why_and_an_example(site: Path) -> None:
    from mcpgen.check import catalog

    rules = catalog.load_all()
    index = _text(site, "reference/rules")
    for rule in rules.values():
        assert f"{rule.id}/" in index, rule.id
        page = _text(site, f"reference/rules/{rule.id}")
        assert "Why this default" in page and "Example finding" in page, rule.id
        if rule.id != "OUTPUT_BOUND_NO_WIDEN":
            assert f" {rule.id} " in page, f"{rule.id}: no finding shown"


def test_the_runtime_api_and_the_manifest_schema_are_generated(site: Path) -> None:
    api = _text(site, "reference/runtime-api")
    for name in ("ToolContext", "ToolError", "ToolClient", "require_api", "build_server"):
        assert f'.{name}"' in api, name
    schema = _text(site, "reference/manifest-schema")
    assert "The schema in full" in schema and "inputSchema" in schema


def test_the_sites_pages(site: Path) -> None:
    for page in ("getting-started/tutorial", "guides/regenerate", "explanation/contract"):
        assert (site / page / "index.html").is_file(), page
    assert (site / "lean-engine" / "index.html").is_file()
    assert (site / "registry" / "index.html").is_file()
    assert not (site / "_hooks").exists()
