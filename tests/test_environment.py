"""The suite passes in the environment a person has, and no test depends on the CI machine's.

A CI machine set ``PYTHONDONTWRITEBYTECODE=1``; on a person's machine Python writes bytecode, and
three tests that only passed without it hid behind a green CI. So:

* ``.ci/run`` unsets every ``PYTHON*`` and ``PYTEST_*`` variable before it runs anything (its
  "a person's environment" block, run here in bash to prove it);
* under CI the suite checks that it sees none of them, and that this process writes bytecode;
* the tests that write, regenerate and import generated packages (where such variables bite)
  run again in a child pytest with the CI machine's variables set: a test that passes only
  with them, or only without them, fails one of the two runs.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CI_RUN = REPO / ".ci" / "run"
PREFIXES = ("PYTHON", "PYTEST_")
# What a CI machine was seen to set, and what a person's shell may set.
MACHINE = {
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
    "PYTHONHASHSEED": "0",
    "PYTHONWARNINGS": "ignore",
    "PYTEST_ADDOPTS": "-p no:cacheprovider",
}
# The tests that spawn Python on generated packages: bytecode, sys.path and imports matter there.
SENSITIVE = [
    "tests/server/test_runtime_version.py",
    "tests/test_byte_stable.py::test_check_sees_a_stale_inputs_digest",
    "tests/test_byte_stable.py::test_committed_examples_match_a_write",
    "tests/server/test_generate.py",
]


def _persons_block() -> str:
    text = CI_RUN.read_text(encoding="utf-8")
    match = re.search(r"# --- a person's environment ---\n(.*?)\n# ---\n", text, re.S)
    assert match, '.ci/run has no "a person\'s environment" block'
    return match.group(1)


def test_ci_run_unsets_the_machines_python_variables() -> None:
    env = {**os.environ, **MACHINE, "PYTHONPATH": "/nowhere", "PIP_FIND_LINKS": "/opt/wheels"}
    proc = subprocess.run(
        ["bash", "-c", _persons_block() + "\nenv"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    names = {line.split("=", 1)[0] for line in proc.stdout.splitlines() if "=" in line}
    assert not {n for n in names if n.startswith(PREFIXES)}, sorted(names)
    assert "PIP_FIND_LINKS" in names  # where the index is: kept


@pytest.mark.skipif(
    os.environ.get("CI") != "true", reason="outside CI the environment is the person's own"
)
def test_ci_runs_the_suite_in_a_persons_environment() -> None:
    own = ("PYTEST_CURRENT_TEST", "PYTEST_XDIST_", "PYTEST_VERSION")  # pytest's and xdist's
    seen = sorted(k for k in os.environ if k.startswith(PREFIXES) and not k.startswith(own))
    assert not seen, f"the suite sees the machine's {seen}: run it through .ci/run"
    assert sys.dont_write_bytecode is False


@pytest.mark.slow
def test_sensitive_tests_also_pass_with_the_machines_variables(tmp_path: Path) -> None:
    env = {**os.environ, **MACHINE, "PYTHONPATH": str(tmp_path / "empty")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
        + ["--basetemp", str(tmp_path / "t"), *SENSITIVE],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


def test_the_classifiers_name_the_pythons_ci_runs() -> None:
    """3.11 runs the whole suite; ``other_python`` lines run 3.12's lean tests and the inner
    loop on the oldest and newest declared Python. The classifiers of both distributions say
    exactly those, and ``requires-python`` starts at the oldest."""
    text = CI_RUN.read_text(encoding="utf-8")
    tested = {11} | {int(m) for m in re.findall(r"^  other_python (\d+) ", text, re.M)}
    for pyproject in (REPO / "pyproject.toml", REPO / "runtime" / "pyproject.toml"):
        body = pyproject.read_text(encoding="utf-8")
        named = {int(m) for m in re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', body)}
        assert named == tested, (pyproject, named, tested)
        assert f'requires-python = ">=3.{min(tested)}"' in body, pyproject


def test_every_slow_entry_names_collected_tests() -> None:
    """``SLOW_TESTS`` in tests/conftest.py (the inner loop leaves them out): an entry that no
    longer names a test (renamed, moved) would silently put a slow test back in the loop's
    place or hide a typo."""
    from tests.conftest import SLOW_TESTS

    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0"]
        + ["-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    assert len(ids) > 1000, proc.stdout[-2000:] + proc.stderr[-2000:]
    stale = [entry for entry in SLOW_TESTS if not any(i.startswith(entry) for i in ids)]
    assert not stale, stale


def test_children_get_ctrl_c_as_in_a_terminal() -> None:
    """A shell starts a background job (`pytest ... &`, some CI runners' scripts) with SIGINT
    ignored, and a child inherits that: a Python started so never raises KeyboardInterrupt,
    and the tests that press Ctrl-C on a CLI or a server hung. tests/conftest.py gives the suite
    a terminal's Ctrl-C; a child it starts is interrupted by SIGINT (run the suite as `(pytest
    ... &)` without that reset and this fails)."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nprint(1, flush=True)\n"
            "try:\n    time.sleep(60)\nexcept KeyboardInterrupt:\n    sys.exit(130)\n",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"1\n"
        child.send_signal(signal.SIGINT)
        # 130: KeyboardInterrupt inside the try; -SIGINT: it came a moment before the try
        assert child.wait(30) in (130, -signal.SIGINT)
    finally:
        child.kill()
        child.wait()
