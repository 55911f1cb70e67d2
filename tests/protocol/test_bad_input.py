"""Bad input to ``mcpgen protocol generate`` and ``pull``: one line on stderr, exit 2, no
traceback, and nothing written (the ``--out`` tree / the cache stay byte-identical)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import (
    PINS_FILE,
    REVISIONS,
    Run,
    assert_one_line_error,
    run_mcpgen,
    sha256_file,
    snapshot,
)

PINS = json.loads(PINS_FILE.read_text(encoding="utf-8"))["revisions"]


def generate(mirror: Path, out: Path, *args: str, pins: Path | None = None) -> Run:
    env = {"MCPGEN_PINS_FILE": str(pins)} if pins else {}
    return run_mcpgen("protocol", "generate", *args, "--from", mirror, "--out", out, env=env)


def break_ref(mirror: Path, rev: str) -> None:
    path = mirror / rev / "schema.json"
    text = path.read_text(encoding="utf-8")
    container = "$defs" if rev not in ("2024-11-05", "2025-03-26", "2025-06-18") else "definitions"
    target = f'"#/{container}/Root"'
    assert text.count(target) >= 1
    path.write_text(text.replace(target, f'"#/{container}/NoSuchType"', 1), encoding="utf-8")


def test_schema_that_is_not_json(
    mirror_copy: Path, committed_copy: Path, pins_for: Callable[[Path], Path]
) -> None:
    bad = mirror_copy / "2024-11-05" / "schema.json"
    bad.write_text(
        '{"$schema": "http://json-schema.org/draft-07/schema#",\n  "definitions": {oops}\n',
        encoding="utf-8",
    )
    before = snapshot(committed_copy)
    run = generate(mirror_copy, committed_copy, pins=pins_for(mirror_copy))
    assert_one_line_error(run, f"{bad}:2:19:", "not valid JSON")
    assert snapshot(committed_copy) == before


def test_wrong_hash(mirror_copy: Path, committed_copy: Path) -> None:
    tampered = mirror_copy / "2025-06-18" / "schema.json"
    tampered.write_bytes(tampered.read_bytes().replace(b'"Tool"', b'"T00l"', 1))
    before = snapshot(committed_copy)
    run = generate(mirror_copy, committed_copy)
    assert_one_line_error(
        run,
        str(tampered),
        "sha256 mismatch",
        "2025-06-18",
        PINS["2025-06-18"]["sha256"],
        sha256_file(tampered),
    )
    assert snapshot(committed_copy) == before


def test_missing_ref_target_after_other_revisions_were_built(
    mirror_copy: Path, committed_copy: Path, pins_for: Callable[[Path], Path]
) -> None:
    """The last pinned revision is broken: five modules are built first, then the run fails;
    the output tree must still be exactly what it was (no half-written tree, no staging dir)."""
    break_ref(mirror_copy, "draft")
    before = snapshot(committed_copy)
    run = generate(mirror_copy, committed_copy, pins=pins_for(mirror_copy))
    assert_one_line_error(
        run, "'#/$defs/NoSuchType'", "/$defs/ListRootsResult/properties/roots/items", "draft"
    )
    assert snapshot(committed_copy) == before
    assert sorted(p.name for p in committed_copy.iterdir()) == ["mcp_wire"]


def test_missing_ref_error_names_the_schema_file(
    mirror_copy: Path, tmp_path: Path, pins_for: Callable[[Path], Path]
) -> None:
    break_ref(mirror_copy, "2024-11-05")
    run = generate(mirror_copy, tmp_path / "out", "-r", "2024-11-05", pins=pins_for(mirror_copy))
    assert_one_line_error(run, str(mirror_copy / "2024-11-05" / "schema.json"))


def test_missing_schema_file(mirror_copy: Path, committed_copy: Path) -> None:
    missing = mirror_copy / "2025-11-25" / "schema.json"
    missing.unlink()
    before = snapshot(committed_copy)
    run = generate(mirror_copy, committed_copy, "-r", "2025-11-25")
    assert_one_line_error(run, str(missing), "not found")
    assert snapshot(committed_copy) == before


def test_missing_mirror_directory(tmp_path: Path, committed_copy: Path) -> None:
    before = snapshot(committed_copy)
    run = generate(tmp_path / "no-such-mirror", committed_copy)
    assert_one_line_error(run, "not found")
    assert snapshot(committed_copy) == before


def test_unknown_revision(spec_dir: Path, committed_copy: Path) -> None:
    before = snapshot(committed_copy)
    run = generate(spec_dir, committed_copy, "-r", "1999-01-01")
    assert_one_line_error(run, "'1999-01-01'", "2026-07-28")
    assert snapshot(committed_copy) == before


def test_unreadable_pins_file(spec_dir: Path, committed_copy: Path, tmp_path: Path) -> None:
    pins = tmp_path / "pins.json"
    pins.write_text("{", encoding="utf-8")
    before = snapshot(committed_copy)
    run = generate(spec_dir, committed_copy, pins=pins)
    assert_one_line_error(run, str(pins), "revision pins")
    assert snapshot(committed_copy) == before


# --------------------------------------------------------------------------- pull


def test_pull_from_mirror_writes_verified_files(spec_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run = run_mcpgen("protocol", "pull", "--from", spec_dir, "--cache-dir", cache)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == str(cache)
    assert sorted(
        p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file()
    ) == sorted(f"{rev}/schema.json" for rev in REVISIONS)
    for rev in REVISIONS:
        written = cache / rev / "schema.json"
        assert sha256_file(written) == PINS[rev]["sha256"]
        assert written.read_bytes() == (spec_dir / rev / "schema.json").read_bytes()


def test_pull_one_revision(spec_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run = run_mcpgen(
        "protocol", "pull", "-r", "2025-06-18", "--from", spec_dir, "--cache-dir", cache
    )
    assert run.returncode == 0, run.stderr
    assert [p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file()] == [
        "2025-06-18/schema.json"
    ]


def test_pull_with_tampered_mirror_writes_nothing(mirror_copy: Path, tmp_path: Path) -> None:
    tampered = mirror_copy / "draft" / "schema.json"  # the last revision: all others verify first
    tampered.write_bytes(tampered.read_bytes() + b"\n")
    cache = tmp_path / "cache"
    run = run_mcpgen("protocol", "pull", "--from", mirror_copy, "--cache-dir", cache)
    assert_one_line_error(run, str(tampered), "sha256 mismatch", "draft")
    assert run.stdout == ""
    assert snapshot(cache) == {}


def test_pull_unknown_revision(spec_dir: Path, tmp_path: Path) -> None:
    run = run_mcpgen(
        "protocol", "pull", "-r", "1999-01-01", "--from", spec_dir, "--cache-dir", tmp_path / "c"
    )
    assert_one_line_error(run, "'1999-01-01'")
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {
                "fields": {
                    **PINS["2024-11-05"]["fields"],
                    "Tool": ["description", "inputSchema", "name", "title"],
                }
            },
            "revision pin '2024-11-05': fields.Tool ['description', 'inputSchema', 'name', "
            "'title'] but its schema's Tool has ['description', 'inputSchema', 'name']",
        ),
        (
            {"stateless": True},
            "revision pin '2024-11-05': stateless is true but its schema has an InitializeRequest",
        ),
        ({"stateless": "no"}, "revision pin '2024-11-05' needs url, sha256, module"),
    ],
)
def test_revision_facts_that_disagree_with_the_schema(
    mirror_copy: Path,
    committed_copy: Path,
    tmp_path: Path,
    change: dict[str, object],
    message: str,
) -> None:
    """The runtime reads each revision's facts from the generated package: a pin that says
    something its schema does not is refused before anything is written."""
    doc = json.loads(PINS_FILE.read_text(encoding="utf-8"))
    doc["revisions"]["2024-11-05"].update(change)
    pins = tmp_path / "facts.json"
    pins.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    before = snapshot(committed_copy)
    run = generate(mirror_copy, committed_copy, pins=pins)
    assert_one_line_error(run, str(pins), message)
    assert snapshot(committed_copy) == before
