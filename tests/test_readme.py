"""The README tells the truth: facts that code can check are checked here, so a claim that goes
stale fails the suite (the set-up commands, flags, printed lines, layouts, line counts, exit
codes, the development tree)."""

from __future__ import annotations

import re
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else None]


def mcpgen(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def test_exactly_two_setup_commands_and_the_test_one_is_what_ci_runs() -> None:
    blocks = re.findall(r"```sh\n(.*?)\n```", section("Set-up (two commands)"), re.S)
    assert len(blocks) == 2 and all("\n" not in b for b in blocks), blocks
    main, test = blocks
    assert main.startswith("python3 -m venv .venv && ") and "examples/weather" in main
    ci = (REPO / ".ci" / "run").read_text()
    ci_line = ci.split("keep the two in sync", 1)[1].splitlines()[1].strip()
    assert ci_line == test
    assert "-c constraints/test.txt" in test


def _help_flags(command: list[str]) -> set[str]:
    proc = mcpgen(*command, "--help")
    assert proc.returncode == 0, proc.stderr
    return set(re.findall(r"(--[a-z][a-z0-9-]*)", proc.stdout))


def test_every_flag_in_the_commands_table_exists() -> None:
    table = section("Commands")
    rows = re.findall(r"^\| `mcpgen ([a-z ]+?)(?: [A-Z(\[].*?)?` \| (.*?) \|$", table, re.M)
    assert len(rows) >= 10, rows
    for command, _description in rows:
        row = next(line for line in table.splitlines() if line.startswith(f"| `mcpgen {command}"))
        flags = set(re.findall(r"(--[a-z][a-z0-9-]*)", row))
        missing = flags - _help_flags(command.split())
        assert not missing, f"mcpgen {command}: README names {sorted(missing)}, --help has not"


def _py_lines(directory: Path) -> int:
    return sum(len(p.read_text().splitlines()) for p in sorted(directory.glob("*.py")))


def test_generated_line_counts() -> None:
    counts = [int(n) for n in re.findall(r"\(the weather example: (\d+) lines\)", README)]
    server = _py_lines(REPO / "examples" / "weather" / "weather_server" / "_generated")
    client = _py_lines(REPO / "tests" / "client" / "golden" / "weather_client" / "_generated")
    assert counts == [server, client]


def _layout_files(title: str, package: str) -> set[str]:
    text = section(title)
    tree = text[text.index(f"{package}/\n") :]
    tree = tree[: tree.index("```")]
    block = tree[tree.index("_generated/") :]
    return set(re.findall(r"^    ([a-z_]+\.py)\b", block, re.M))


@pytest.mark.parametrize(
    "title, package, directory",
    [
        ("`mcpgen server`", "weather_server", "examples/weather/weather_server/_generated"),
        (
            "Typed clients: `mcpgen client`, `mcpgen pull`, `mcpgen drift`",
            "weather_client",
            "tests/client/golden/weather_client/_generated",
        ),
    ],
)
def test_package_layouts(title: str, package: str, directory: str) -> None:
    on_disk = {p.name for p in (REPO / directory).glob("*.py")}
    assert _layout_files(title, package) == on_disk


def test_printed_lines() -> None:
    checked = mcpgen("check", "examples/weather/tools.yaml")
    assert checked.returncode == 0
    assert f"$ mcpgen check examples/weather/tools.yaml\n{checked.stderr}" in README

    from mcp.server.lowlevel import Server

    from mcpgen_runtime.server.cli import start_line

    opts = Namespace(http=True, host="127.0.0.1", port=8000, path="/mcp", workers=1)
    assert f"\n{start_line(Server('weather', version='1.0.0'), opts)}\n" in README


def test_exit_codes(tmp_path: Path) -> None:
    from mcpgen import errors

    codes = section("Commands")
    assert (errors.EXIT_OK, errors.EXIT_FINDINGS, errors.EXIT_USAGE, errors.EXIT_INTERNAL) == (
        0,
        1,
        2,
        3,
    )
    for n in "0123":
        assert f"`{n}`" in codes
    missing = tmp_path / "missing.yaml"
    server = mcpgen("server", missing, "--out", tmp_path, "--package", "p")
    assert server.returncode == 2
    assert server.stderr.splitlines() == [
        f"mcpgen: error: {missing}: cannot read manifest: No such file or directory"
    ]
    check = mcpgen("check", missing)
    assert check.returncode == 2 and "INPUT_UNREADABLE" in check.stdout
    assert "INPUT_UNREADABLE" in codes
    bad = tmp_path / "bad.yaml"
    bad.write_text("tools:\n  - name: a b\n    inputSchema: {type: object}\n")
    gated = mcpgen("server", bad, "--out", tmp_path, "--package", "p")
    assert gated.returncode == 1 and "error TOOL_NAME_CHARSET" in gated.stderr
    assert "a manifest that `mcpgen check` rejects" in codes


def _names(block: str) -> set[str]:
    """Module names listed in a development-tree entry: commas at the top level, parenthesised
    notes dropped."""
    flat = " ".join(line.strip() for line in block.splitlines())
    while True:
        stripped = re.sub(r"\([^()]*\)", "", flat)
        if stripped == flat:
            break
        flat = stripped
    return {part.strip().split(" ")[0] for part in flat.split(",") if part.strip()}


def test_development_tree_names_real_modules() -> None:
    tree = section("Development")
    tree = tree[tree.index("```\n") + 4 :]
    tree = tree[: tree.index("```")]
    entries: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    key = None
    for line in tree.splitlines():
        m = re.match(r"^( {0,6})(\S+/|\S+\.py)\s{2,}(.*)$", line)
        if m:
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key = "".join(name for _, name in stack) + m.group(2)
            stack.append((indent, m.group(2)))
            entries[key] = m.group(3)
        elif key is not None and line.startswith(" " * 25):
            entries[key] += "\n" + line.strip()
    runtime = REPO / "runtime" / "mcpgen_runtime"
    checked = {
        "runtime/mcpgen_runtime/": runtime,
        "runtime/mcpgen_runtime/server/": runtime / "server",
        "runtime/mcpgen_runtime/server/auth/": runtime / "server" / "auth",
        "runtime/mcpgen_runtime/client/": runtime / "client",
        "mcpgen/server/": REPO / "mcpgen" / "server",
        "mcpgen/client/": REPO / "mcpgen" / "client",
        "mcpgen/ir/": REPO / "mcpgen" / "ir",
    }
    for entry, where in checked.items():
        names = _names(entries[entry])
        assert len(names) >= 3, (entry, names)
        for name in names:
            assert (where / f"{name}.py").is_file() or (where / name).is_file(), (
                f"README names {entry}{name}, which is gone"
            )
    bare = next(line for line in tree.splitlines() if line.startswith("  naming, "))
    for name in _names(bare):
        assert (REPO / "mcpgen" / f"{name}.py").is_file(), name
    for module in ("packages.py", "parameters.py", "scaffold.py", "wheelhouse.py"):
        assert f"mcpgen/{module}" in entries and (REPO / "mcpgen" / module).is_file()
