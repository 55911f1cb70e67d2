"""The locked test environment: what the README's test command installs is what the lock says, the
locks stay inside the ranges users install with, and the README's range table matches the locks."""

from __future__ import annotations

import re
import sys
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import DEPS_MODE, LOCKED, REPO_ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # the oldest declared Python
    import tomli as tomllib

LOCKS = REPO_ROOT / "constraints"
OURS = {"mcpgen", "mcpgen-runtime"}
# Installed by venv/pip themselves, or only by `pip install -e '.[lock]'`.
NOT_LOCKED = {"pip", "setuptools", "wheel", "uv"}


def _lock(name: str) -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (LOCKS / name).read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate():
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", line
        pins[canonicalize_name(req.name)] = Version(spec.version)
    return pins


def _ranges() -> dict[str, list[Requirement]]:
    out: dict[str, list[Requirement]] = {}
    for pyproject in (REPO_ROOT / "pyproject.toml", REPO_ROOT / "runtime" / "pyproject.toml"):
        project = tomllib.loads(pyproject.read_text())["project"]
        reqs = list(project["dependencies"])
        for extra, items in project.get("optional-dependencies", {}).items():
            if extra != "lock":
                reqs += items
        for text in reqs:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                out.setdefault(canonicalize_name(req.name), []).append(req)
    return out


# The locks resolved for this Python: test.txt and lowest.txt are 3.11+ (--python-version 3.11);
# 3.10 has its own (constraints/lock.sh).
LOCKS_HERE = ["test.txt", "lowest.txt"] if sys.version_info >= (3, 11) else ["test-py3.10.txt"]


@pytest.mark.parametrize("lock", LOCKS_HERE)
def test_each_lock_is_inside_the_declared_ranges(lock: str) -> None:
    pins = _lock(lock)
    for name, reqs in _ranges().items():
        if name in OURS:
            continue
        assert name in pins, f"{name} is a dependency but {lock} does not pin it"
        for req in reqs:
            assert pins[name] in req.specifier, f"{lock}: {name}=={pins[name]} outside {req}"


@pytest.mark.skipif(DEPS_MODE != "locked", reason="checks the locked mode's environment")
def test_this_environment_is_the_lock() -> None:
    pins = _lock(LOCKED)
    installed = {
        canonicalize_name(d.metadata["Name"]): Version(d.version) for d in metadata.distributions()
    }
    wrong = {n: (str(v), str(pins[n])) for n, v in installed.items() if n in pins and v != pins[n]}
    assert not wrong, f"installed != constraints/{LOCKED}: {wrong}"
    unlocked = set(installed) - set(pins) - OURS - NOT_LOCKED
    assert not unlocked, f"installed but not in constraints/{LOCKED}: {sorted(unlocked)}"


def test_readme_states_the_tested_ends() -> None:
    """The docs' range table (Set-up, moved there from the README) names the lowest and highest
    tested versions from the locks."""
    readme = (REPO_ROOT / "docs" / "getting-started" / "setup.md").read_text()
    low, high = _lock("lowest.txt"), _lock("test.txt")
    for name in ("mcp", "pydantic", "pyyaml"):
        row = re.search(
            rf"^\| `{name}` \| `([^`]+)` \| ([\d.]+) \| ([\d.]+) \|", readme, re.M | re.I
        )
        assert row, f"docs/getting-started/setup.md has no range row for {name}"
        declared = {r.specifier for r in _ranges()[name]}
        assert SpecifierSet(row.group(1)) in declared, (row.group(1), declared)
        assert (Version(row.group(2)), Version(row.group(3))) == (low[name], high[name]), name
