"""The README tells the truth: the two set-up commands (the test one is what CI runs), and the
five-minute tour, run command by command. Facts of the pages the README links to are checked in
tests/docs/test_pages.py, and the tutorial runs in tests/docs/test_tutorial.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
MAX_LINES = 200


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else None]


def test_exactly_two_setup_commands_and_the_test_one_is_what_ci_runs() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", section("Set-up (two commands)"), re.S)
    assert len(blocks) == 2 and all("\n" not in b for b in blocks), blocks
    main, test = blocks
    assert main.startswith("python3 -m venv .venv && ") and "examples/weather" in main
    ci = (REPO / ".ci" / "run").read_text()
    ci_line = ci.split("keep the two in sync", 1)[1].splitlines()[1].strip()
    assert ci_line == test
    assert "-c constraints/test.txt" in test


def test_the_readme_is_short_and_its_links_resolve() -> None:
    assert len(README.splitlines()) <= MAX_LINES
    for target in re.findall(r"\]\(((?:docs/)[^)#]*)", README):
        assert (REPO / target).exists() or target == "docs/lean-engine.md", target


def test_printed_lines() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mcpgen", "check", "examples/weather/tools.yaml"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert checked.returncode == 0
    assert f"$ mcpgen check examples/weather/tools.yaml\n{checked.stderr}" in README


@pytest.mark.slow
def test_the_tour_runs(tmp_path: Path) -> None:
    """Every command of the tour, in order, in one shell; the last block (`mcpgen breaking`)
    exits 1, as the README says, and prints the line it quotes."""
    blocks = re.findall(r"```sh\n(.*?)\n```", section("A five-minute tour"), re.S)
    assert len(blocks) == 3, blocks
    *ok, breaking = blocks
    env = dict(
        os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
    )
    script = "set -euo pipefail\n" + "\n".join(ok) + "\nset +e\n" + breaking + "\necho exit=$?\n"
    proc = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 0, f"stdout:\n{out}\nstderr:\n{err}"
    tour = section("A five-minute tour")
    assert "mcpgen: no findings in 1 file (1 tool, 1 resource, 1 prompt)" in err
    assert '"greeting": "Hello, Ada!"' in out
    assert out.rstrip().endswith("exit=1")
    finding = next(line for line in out.splitlines() if "INPUT_REQUIRED_NO_ADD" in line)
    assert " ".join(finding.split()) in " ".join(tour.replace("`", "").split())
    assert (tmp_path / "hello" / "reference" / "index.html").is_file()


def test_every_command_at_a_glance_exists() -> None:
    cells = [
        line.split(" | ", 1)[0]
        for line in section("Commands at a glance").splitlines()
        if line.startswith("| `mcpgen ")
    ]
    assert len(cells) >= 10, cells
    for cell in cells:
        for span in re.findall(r"`mcpgen ([^`]+)`", cell):
            words = span.replace("\\|", "|").split()
            first = words[0]
            subs = words[1].split("|") if first == "protocol" else [None]
            for sub in subs:
                args = [first] + ([sub] if sub else [])
                proc = subprocess.run(
                    [sys.executable, "-m", "mcpgen", *args, "--help"],
                    capture_output=True,
                    text=True,
                    cwd=REPO,
                )
                assert proc.returncode == 0, f"mcpgen {' '.join(args)}: {proc.stderr}"


def test_the_setup_page_shows_the_same_two_commands() -> None:
    setup = (REPO / "docs" / "getting-started" / "setup.md").read_text(encoding="utf-8")
    readme = re.findall(r"```sh\n(.*?)\n```", section("Set-up (two commands)"), re.S)
    assert re.findall(r"```sh\n(.*?)\n```", setup, re.S)[:2] == readme
