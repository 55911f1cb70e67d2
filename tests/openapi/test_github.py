"""Scale: GitHub's REST description (npm ``@octokit/openapi``, pinned in
tests/openapi/js/package-lock.json; about 1,000 operations, 13 MB of JSON). The whole import
and the ``--include-tags repos`` one; the filtered manifest checks clean. Times are measured
in bench/bench_import.py, not here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests import inprocess

JS = Path(__file__).resolve().parent / "js"


@pytest.fixture(scope="module")
def github() -> Path:
    from tests.interop.procs import NodeToolchain, ensure_js_peers

    nm = ensure_js_peers(NodeToolchain.from_wheel(), JS)
    return nm / "@octokit" / "openapi" / "generated" / "api.github.com.json"


def _mcpgen(*args: str) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args)


def test_github_whole_and_repos(github: Path, tmp_path: Path) -> None:
    whole = _mcpgen("import", "openapi", str(github), "-o", str(tmp_path / "gh.yaml"))
    assert whole.returncode == 0, whole.stderr[-2000:]
    found = re.search(r"wrote .*: (\d+) tools", whole.stderr)
    assert found is not None, whole.stderr
    count = int(found[1])
    assert count > 1000, whole.stderr
    # the two operations GitHub sends other than JSON bodies are skipped, with their place
    assert whole.stderr.count("skipped") == 2 and "application/octet-stream" in whole.stderr
    repos = _mcpgen(
        "import",
        "openapi",
        str(github),
        "-o",
        str(tmp_path / "repos.yaml"),
        "--include-tags",
        "repos",
    )
    assert repos.returncode == 0, repos.stderr[-2000:]
    checked = _mcpgen("check", str(tmp_path / "repos.yaml"))
    assert checked.returncode == 0, (checked.stdout + checked.stderr)[-3000:]
