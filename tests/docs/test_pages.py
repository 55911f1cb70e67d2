"""The docs site tells the truth: facts that code can check are checked here, so a claim that
goes stale fails the suite (flags, printed lines, layouts, line counts, exit codes, the module
map, the generated CLI's command names, and the flags of every `mcpgen` command the pages show).
These moved from the README with the pages (tests/test_readme.py checks what the README keeps).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from tests import inprocess
from tests.docs.pages import REPO, page, pages, section, sh_blocks


def mcpgen(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


def mcpgen_help(*command: str) -> tuple[int, str]:
    """``mcpgen COMMAND --help``: its exit code and output, from click in this process (a
    ``python -m mcpgen`` per command cost the two tests below ~30 processes; what they check is
    the flags click knows, not the process: tests/test_entrypoint.py starts the real one)."""
    from click.testing import CliRunner

    from mcpgen.cli import cli

    result = CliRunner().invoke(cli, [*command, "--help"], prog_name="mcpgen")
    return result.exit_code, result.output


def _help_flags(command: list[str]) -> set[str]:
    code, out = mcpgen_help(*command)
    assert code == 0, out
    return set(re.findall(r"(--[a-z][a-z0-9-]*)", out))


def test_every_flag_in_the_commands_table_exists() -> None:
    table = section(page("reference/commands.md"), "Commands")
    rows = re.findall(r"^\| `mcpgen ([a-z ]+?)(?: [A-Z(\[].*?)?` \| (.*?) \|$", table, re.M)
    assert len(rows) >= 10, rows
    for command, _description in rows:
        row = next(line for line in table.splitlines() if line.startswith(f"| `mcpgen {command}"))
        flags = set(re.findall(r"(--[a-z][a-z0-9-]*)", row))
        missing = flags - _help_flags(command.split())
        assert not missing, f"mcpgen {command}: the page names {sorted(missing)}, --help has not"


def _py_lines(directory: Path) -> int:
    return sum(len(p.read_text().splitlines()) for p in sorted(directory.glob("*.py")))


def test_generated_line_counts() -> None:
    text = page("guides/server.md") + page("guides/clients.md")
    counts = [int(n) for n in re.findall(r"\(the weather example: (\d+) lines\)", text)]
    server = _py_lines(REPO / "examples" / "weather" / "weather_server" / "_generated")
    client = _py_lines(REPO / "tests" / "client" / "golden" / "weather_client" / "_generated")
    assert counts == [server, client]


def _layout_files(relative: str, package: str) -> set[str]:
    text = page(relative)
    tree = text[text.index(f"{package}/\n") :]
    tree = tree[: tree.index("```")]
    block = tree[tree.index("_generated/") :]
    return set(re.findall(r"^    ([a-z_]+\.py)\b", block, re.M))


@pytest.mark.parametrize(
    "relative, package, directory",
    [
        ("guides/server.md", "weather_server", "examples/weather/weather_server/_generated"),
        ("guides/clients.md", "weather_client", "tests/client/golden/weather_client/_generated"),
    ],
)
def test_package_layouts(relative: str, package: str, directory: str) -> None:
    on_disk = {p.name for p in (REPO / directory).glob("*.py")}
    assert _layout_files(relative, package) == on_disk


def test_printed_lines() -> None:
    checked = mcpgen("check", "examples/weather/tools.yaml")
    assert checked.returncode == 0
    assert f"$ mcpgen check examples/weather/tools.yaml\n{checked.stderr}" in page(
        "guides/check.md"
    )

    from mcp.server.lowlevel import Server

    from mcpgen_runtime.server.cli import start_line

    opts = Namespace(http=True, host="127.0.0.1", port=8000, path="/mcp", workers=1)
    line = start_line(Server("weather", version="1.0.0"), opts)
    assert f"\n{line}\n" in page("guides/server.md")


def test_exit_codes(tmp_path: Path) -> None:
    from mcpgen import errors

    codes = section(page("reference/commands.md"), "Commands")
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
    assert gated.returncode == 2 and "error TOOL_NAME_CHARSET" in gated.stderr
    assert "manifest a generator refuses because `mcpgen check` finds errors" in " ".join(
        codes.split()
    )


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
    tree = section(page("explanation/architecture.md"), "Development")
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
            assert (
                (where / f"{name}.py").is_file()
                or (where / name).is_file()
                or (name.endswith("/") and (where / name / "__init__.py").is_file())
            ), f"the module map names {entry}{name}, which is gone"
    bare = next(line for line in tree.splitlines() if line.startswith("  naming, "))
    for name in _names(bare):
        assert (REPO / "mcpgen" / f"{name}.py").is_file(), name
    for module in ("packages.py", "parameters.py", "scaffold.py", "wheelhouse.py"):
        assert f"mcpgen/{module}" in entries and (REPO / "mcpgen" / module).is_file()


def test_the_generated_cli_names_commands_as_the_page_says() -> None:
    """The generated CLI's subcommand names: the page's examples are what the code does."""
    from mcpgen.client.cli_table import _kebab

    text = page("guides/generated-cli.md")
    pairs = re.findall(r"`([A-Za-z_.]+)` becomes `([a-z.-]+)`", text)
    assert len(pairs) >= 3, pairs
    for tool, command in pairs:
        assert _kebab(tool) == command, (tool, command)
    assert "kebab case" not in text


def _mcpgen_lines() -> list[tuple[str, list[str]]]:
    out = []
    for name, text in pages().items():
        for block in sh_blocks(text):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("  #", 1)[0].strip()
                for part in re.split(r"&&|\|\||;|\|", line):
                    if not part.strip().startswith("mcpgen "):
                        continue
                    try:
                        words = shlex.split(part.strip())
                    except ValueError:  # a quote closed on a later line: plain words
                        words = part.split()
                    if words and words[0] == "mcpgen":
                        out.append((name, words[1:]))
    return out


_GROUPS = {"protocol", "export", "import"}


def test_every_mcpgen_command_the_pages_show_exists_with_its_flags() -> None:
    """Each `mcpgen ...` line in a ```sh block of the site: the (sub)command exists and every
    flag it uses is in that command's --help (the tutorial runs its commands for real)."""
    lines = _mcpgen_lines()
    assert len(lines) >= 20, lines
    helps: dict[tuple[str, ...], set[str]] = {}
    for name, words in lines:
        command = tuple(words[:2]) if words and words[0] in _GROUPS else tuple(words[:1])
        if command not in helps:
            code, out = mcpgen_help(*command)
            assert code == 0, f"{name}: mcpgen {' '.join(command)}: {out}"
            helps[command] = set(re.findall(r"(--[a-z][a-z0-9-]*)", out))
        flags = {w.split("=", 1)[0] for w in words if w.startswith("--")}
        missing = flags - helps[command]
        assert not missing, f"{name}: mcpgen {' '.join(command)} has no {sorted(missing)}"


def _server_lines() -> list[tuple[str, list[str]]]:
    """`python -m SOMETHING_server ...` lines of the pages: a generated server's command line."""
    out = []
    for name, text in pages().items():
        for block in sh_blocks(text):
            for line in block.splitlines():
                line = line.split("  #", 1)[0].strip()
                m = re.search(r"python -m (\w+_server)\b(.*)$", line)
                if m and not m.group(2).lstrip().startswith(('"', "'")):
                    out.append((name, shlex.split(m.group(2))))
    return out


def test_every_generated_server_flag_the_pages_show_exists() -> None:
    """Each flag of a `python -m PKG_server ...` line is in the generated server's --help (all
    generated servers share the runtime's command line; the weather example's is asked)."""
    lines = _server_lines()
    assert len(lines) >= 8, lines
    proc = subprocess.run(
        [sys.executable, "-m", "weather_server", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO / "examples" / "weather",
    )
    assert proc.returncode == 0, proc.stderr
    known = set(re.findall(r"(--[a-z][a-z0-9-]*)", proc.stdout))
    for name, words in lines:
        flags = {w.split("=", 1)[0] for w in words if w.startswith("--")}
        assert not flags - known, f"{name}: the server has no {sorted(flags - known)}"


@pytest.mark.slow
def test_the_generated_cli_page_runs(tmp_path: Path) -> None:
    """The commands of docs/guides/generated-cli.md that start the server themselves (--stdio)
    run as shown, from the repository root with the weather example importable."""
    (block,) = sh_blocks(page("guides/generated-cli.md"))
    lines = [line for line in block.splitlines() if "--url " not in line]
    assert len(lines) >= 4, lines
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO / "examples" / "weather")]),
    )
    for line in lines:
        line = line.replace(" --out . ", f" --out {tmp_path} ")
        proc = subprocess.run(
            ["bash", "-c", line], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0, f"{line}\n{proc.stdout}\n{proc.stderr}"
        if " skills read " in line:  # a skill's file, as it is: SKILL.md's front matter first
            assert proc.stdout.startswith("---\nname: reading-forecasts\n"), proc.stdout
        elif line.startswith("python -m weather_cli"):
            assert proc.stdout.lstrip().startswith("{"), proc.stdout
