"""Shared fixtures.

``spec_dir``: the official MCP schemas, laid out as ``<revision>/schema.json`` (plus
``examples/`` where the mirror has them). The project never commits these files; it pins them
by URL + sha256 in ``schema/revisions.json``. Tests read them from the local mirror beside the
checkout (``../shared/mcp-spec``, or ``$MCPGEN_SPEC_DIR``) and otherwise fall back to
``mcpgen protocol pull`` (a user's machine, which has the internet).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mcpgen_runtime.revisions import KNOWN_REVISIONS

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_SPEC = REPO_ROOT.parent / "shared" / "mcp-spec"
# The dependency mode of this run (.ci/run's MCPGEN_DEPS). Installs made by the tests themselves
# (wheel venvs, pre-commit's hook environment) get the same versions as the suite's own venv.
DEPS_MODE = os.environ.get("MCPGEN_DEPS", "locked")
# The locked mode's lock of this Python (3.10, the oldest declared, has its own: lock.sh).
LOCKED = "test.txt" if sys.version_info >= (3, 11) else "test-py3.10.txt"
_LOCK = {"locked": LOCKED, "lowest": "lowest.txt"}.get(DEPS_MODE)
if _LOCK is not None and "PIP_CONSTRAINT" not in os.environ:
    os.environ["PIP_CONSTRAINT"] = str(REPO_ROOT / "constraints" / _LOCK)

# Hypothesis: what decides a verdict is the examples, never the wall clock. Its timing checks
# (the per-example deadline, "input generation is slow") measure the machine: on 2 cores shared
# by xdist workers and the servers they start, they failed tests that were correct.
settings.register_profile("mcpgen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mcpgen")

REVISIONS = KNOWN_REVISIONS  # schema/revisions.json, through the generated mcp_wire


def _mirror() -> Path | None:
    env = os.environ.get("MCPGEN_SPEC_DIR")
    for cand in ([Path(env)] if env else []) + [SHARED_SPEC]:
        if all((cand / r / "schema.json").is_file() for r in REVISIONS):
            return cand
    return None


@pytest.fixture(scope="session")
def spec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    mirror = _mirror()
    if mirror is not None:
        return mirror
    cache = tmp_path_factory.mktemp("spec-cache")
    proc = subprocess.run(
        [sys.executable, "-m", "mcpgen", "protocol", "pull", "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.fail(f"no local spec mirror and `mcpgen protocol pull` failed:\n{proc.stderr}")
    return Path(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


# --- pytest-xdist: which tests must share a worker ---
# The suite runs on every core (``-n auto --dist loadgroup`` in pyproject.toml). Tests are
# spread one by one, except those that share something expensive that lives in one process:
# * a module-scoped fixture (a generated package, a started server, a built wheel): the
#   module's tests that use one stay together, so it is built once, not once per worker;
# * the session fixtures named here, too costly to build on every worker.
# Work that is cheap to share across processes is shared instead (``tests.shared_once``).
SESSION_GROUPS = {"suite_runs": "conformance-suite"}


# --- the inner loop: `pytest -m fast` ---
# Every test not marked `slow` or `interop` is `fast`. Besides the marks in the test files, the
# tests below are slow (a few seconds or more each, measured with --durations on the full suite:
# real peers, servers under load, wheels, whole corpora); tests/test_inner_loop.py checks that
# each entry still names collected tests.
SLOW_TESTS = (
)


def _mark_speed(item: pytest.Item) -> None:
    if item.nodeid.startswith(SLOW_TESTS):
        item.add_marker(pytest.mark.slow)
    if item.get_closest_marker("slow") is None and item.get_closest_marker("interop") is None:
        item.add_marker(pytest.mark.fast)


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the marks set here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _mark_speed(item)
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        group = None
        for name in item.fixturenames:
            for fixturedef in info.name2fixturedefs.get(name, ()):
                if name in SESSION_GROUPS:
                    group = SESSION_GROUPS[name]
                elif fixturedef.scope in ("module", "class") and group is None:
                    group = item.nodeid.split("::", 1)[0]
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
