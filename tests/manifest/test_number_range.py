"""Numbers JSON cannot carry are unreadable input, located, in every command (issue 36).

An integer literal with more digits than Python converts (``sys.get_int_max_str_digits()``,
4,300 by default) used to be an internal error (exit 3) in ``check``, ``breaking``, ``server``
and ``export``; ``maximum: 1e400`` (infinity) passed ``check`` with a warning while ``server``
refused it. Both are now ``path:line:col`` errors with exit 2 everywhere (``check`` and
``breaking`` as an ``INPUT_UNREADABLE`` finding, the others as one ``mcpgen: error:`` line), so
``check`` and generation accept the same manifests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.manifest.sourcemap import parse_text
from tests import inprocess

LIMIT = sys.get_int_max_str_digits()
BIG = "1" * (LIMIT + 100)


def _yaml(value: str) -> str:
    return (
        "server: {name: s, version: 1.0.0}\n"
        "tools:\n"
        "  - name: t\n"
        "    description: d\n"
        "    inputSchema:\n"
        "      type: object\n"
        "      properties:\n"
        f"        a: {{type: number, maximum: {value}}}\n"
    )


def _json(value: str) -> str:
    return (
        '{"server": {"name": "s", "version": "1.0.0"},\n"tools": [{"name": "t", '
        '"description": "d", "inputSchema": {"type": "object", "properties": '
        '{"a": {"type": "number", "maximum": ' + value + "}}}}]}\n"
    )


@pytest.mark.parametrize(
    ("text", "name", "message", "pos"),
    [
        (f"a:\n  b: {BIG}\n", "t.yaml", f"more than {LIMIT} digits", (2, 6)),
        (f"a:\n  b: -{BIG}\n", "t.yaml", f"more than {LIMIT} digits", (2, 6)),
        (f"a: !!int {BIG}\n", "t.yaml", f"more than {LIMIT} digits", (1, 4)),
        (f"a: 0x{'f' * 4000}\n", "t.yaml", f"more than {LIMIT} digits", (1, 4)),
        (f"a: 0o{'7' * 5000}\n", "t.yaml", f"more than {LIMIT} digits", (1, 4)),
        (f'{{"a": "{BIG}",\n "b": {BIG}}}', "t.json", f"more than {LIMIT} digits", (2, 7)),
        ("a:\n  b: 1e400\n", "t.yaml", "1e400 is too large for a JSON number", (2, 6)),
        ("a:\n  b: -1e400\n", "t.yaml", "-1e400 is too large for a JSON number", (2, 6)),
        ("a: !!float 1e400\n", "t.yaml", "1e400 is too large for a JSON number", (1, 4)),
    ],
)
def test_numbers_json_cannot_carry_are_located_errors(
    text: str, name: str, message: str, pos: tuple[int, int]
) -> None:
    with pytest.raises(McpgenError) as exc:
        parse_text(text, name)
    assert message in exc.value.message
    assert (exc.value.line, exc.value.col) == pos


@pytest.mark.parametrize("scalar", ["1" * LIMIT, "1e308", "-1.5e-400", "0x" + "f" * 100])
def test_numbers_json_can_carry_still_load(scalar: str) -> None:
    assert isinstance(parse_text(f"a: {scalar}\n", "t.yaml").value["a"], (int, float))


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


CASES = [
    ("big.yaml", _yaml(BIG), (8, 36), f"more than {LIMIT} digits"),
    ("inf.yaml", _yaml("1e400"), (8, 36), "1e400 is too large for a JSON number"),
    ("big.json", _json(BIG), (2, 129), f"more than {LIMIT} digits"),
]


@pytest.mark.parametrize(("name", "text", "pos", "message"), CASES)
def test_every_command_refuses_them_with_exit_2(
    tmp_path: Path, name: str, text: str, pos: tuple[int, int], message: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    where = f"{name}:{pos[0]}:{pos[1]}:"
    for args in (["check", name], ["breaking", name, name]):
        out = _run(*args, cwd=tmp_path)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert f"{where} error INPUT_UNREADABLE" in out.stdout and message in out.stdout
        assert "internal error" not in out.stderr
    for args in (
        ["server", name, "--out", "out", "--package", "pkg_server"],
        ["export", "summary", name],
    ):
        out = _run(*args, cwd=tmp_path)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.startswith(f"mcpgen: error: {where}") and message in out.stderr
    assert not (tmp_path / "out").exists()
