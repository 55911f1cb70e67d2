"""One exit-code contract for every command (issue 50): ``mcpgen.exitcodes`` has a row for each
command and nothing else, ``--help`` ends with it, and every command exits into the codes it
claims: 2 for a usage error and for a manifest a generator refuses (whatever rule fired), 1
only where the row names findings, 3 for an internal error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from mcpgen.cli import _COMMANDS, cli, main
from mcpgen.exitcodes import EXIT_CODES, epilog, markdown_table

REPO = Path(__file__).resolve().parents[1]
WEATHER = REPO / "examples" / "weather" / "tools.yaml"

# a manifest check rejects (a tool name with a space) and one whose error is a schema rule
REJECTED = {
    "name": "server: {name: notes, version: 0.1.0}\ntools:\n"
    "  - name: delete note\n    inputSchema: {type: object}\n",
    "schema": "server: {name: notes, version: 0.1.0}\ntools:\n"
    "  - name: list_notes\n    inputSchema: {type: string}\n",
}


def _commands() -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(cli)
    for name in _COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert cmd is not None
        if isinstance(cmd, click.Group):
            for sub, subcmd in cmd.commands.items():
                yield f"{name} {sub}", subcmd
        else:
            yield name, cmd


ALL = sorted(name for name, _ in _commands())


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def test_every_command_has_one_row() -> None:
    assert ALL == sorted(EXIT_CODES)
    for name, cmd in _commands():
        assert cmd.epilog == epilog(name)
    table = markdown_table()
    for name in ALL:
        assert f"| `mcpgen {name}` |" in table


def test_commands_page_shows_the_generated_table() -> None:
    page = (REPO / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    assert "<!-- mcpgen exit codes -->" in page
    hook = (REPO / "docs" / "_hooks" / "reference.py").read_text(encoding="utf-8")
    assert "markdown_table" in hook


@pytest.mark.parametrize("command", ALL)
def test_a_usage_error_is_2(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, *command.split(), "--no-such-option")
    assert code == 2, err
    assert "Traceback" not in err


GENERATORS = {
    "server": lambda m, t: ["server", m, "--out", t, "--package", "p"],
    "client": lambda m, t: ["client", m, "--out", t, "--package", "p"],
    "cli": lambda m, t: ["cli", m, "--out", t, "--package", "p"],
    "docs": lambda m, t: ["docs", m, "--out", t],
    "export summary": lambda m, t: ["export", "summary", m],
    "export server-json": lambda m, t: ["export", "server-json", m],
    "export server-card": lambda m, t: ["export", "server-card", m],
    "bundle": lambda m, t: ["bundle", m, "--out", t, "--package", "p"],
}


@pytest.mark.parametrize("which", sorted(REJECTED))
@pytest.mark.parametrize("command", sorted(GENERATORS))
def test_a_manifest_check_rejects_is_2(
    command: str, which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "tools.yaml"
    manifest.write_text(REJECTED[which])
    out = tmp_path / "out"
    code, err = run(capsys, *GENERATORS[command](str(manifest), str(out)))
    assert code == 2, err
    assert "mcpgen check found" in err or "error" in err
    assert not out.exists()


def test_a_missing_manifest_is_2_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.yaml")
    for command, argv in GENERATORS.items():
        code, err = run(capsys, *argv(missing, str(tmp_path / "out")))
        assert code == 2, (command, err)


@pytest.mark.parametrize("command", ["server", "client", "cli", "docs"])
def test_a_check_diff_is_1(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert EXIT_CODES[command][0] is not None
    code, err = run(capsys, *GENERATORS[command](str(WEATHER), str(tmp_path / "o")), "--check")
    assert code == 1, err


def test_findings_are_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "tools.yaml"
    manifest.write_text(REJECTED["name"])
    assert run(capsys, "check", str(manifest))[0] == 1
    old = tmp_path / "old.yaml"
    old.write_text(REJECTED["name"].replace("delete note", "delete_note"))
    new = tmp_path / "new.yaml"
    new.write_text("server: {name: notes, version: 0.1.0}\ntools: []\n")
    assert run(capsys, "breaking", str(old), str(new))[0] == 1


@pytest.mark.parametrize("command", sorted(GENERATORS))
def test_an_internal_error_is_3(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mcpgen.packages

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(mcpgen.packages, "checked_manifest", boom)
    monkeypatch.setattr(mcpgen.packages, "base_parts", boom)
    manifest = tmp_path / "tools.yaml"
    manifest.write_text(REJECTED["name"])
    code, err = run(capsys, *GENERATORS[command](str(manifest), str(tmp_path / "out")))
    assert code == 3, err
    assert err.strip().splitlines() == [
        "mcpgen: internal error: RuntimeError: a bug (rerun with --debug for details)"
    ]


@pytest.mark.parametrize("command", ALL)
def test_a_bug_anywhere_is_3_for_every_command(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a command does, an exception mcpgen did not mean is one line and exit 3."""
    cmd = dict(_commands())[command]

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cmd, "make_context", boom)
    code, err = run(capsys, *command.split())
    assert code == 3, err
    assert err.strip().splitlines() == [
        "mcpgen: internal error: RuntimeError: a bug (rerun with --debug for details)"
    ]
