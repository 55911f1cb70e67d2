"""The exit-code contract, one table for every command: what 0, 1, 2 and 3 mean for each.

Every command follows the same four codes (``mcpgen.errors``): 0 ok; 1 findings (``check``,
``breaking``, ``drift``, a ``--check`` that finds a difference, a bundle whose server does not
start); 2 a usage or input error, including a manifest a generator refuses because ``mcpgen
check`` finds errors in it, and an output path the command may not replace; 3 an internal
error. A command with no findings never exits 1. ``mcpgen COMMAND --help`` ends with the
command's row (``mcpgen.cli``), ``docs/reference/commands.md`` shows the whole table (written by
the docs build hook from ``markdown_table``), and ``tests/test_exit_codes.py`` runs every
command into each code it claims.
"""

from __future__ import annotations

__all__ = ["EXIT_CODES", "epilog", "markdown_table"]

_USAGE = "usage or input error"
_REFUSED = "a manifest `mcpgen check` rejects"
_OUTPUT = "an output it may not replace"

# command -> (what 1 means, or None: it has no findings; what 2 adds to "usage or input error")
EXIT_CODES: dict[str, tuple[str | None, str]] = {
    "breaking": ("breaking changes at or above --fail-on", "an unreadable manifest, a bad ref"),
    "bundle": (
        "the bundled server does not start, or its tools/list differs from manifest.json",
        f"{_REFUSED}, a stale package, {_OUTPUT}",
    ),
    "check": (
        "findings at or above --fail-on",
        "an unreadable file is an INPUT_UNREADABLE finding",
    ),
    "cli": ("--check: the generated files differ", f"{_REFUSED}, {_OUTPUT}"),
    "client": ("--check: the generated files differ", f"{_REFUSED}, {_OUTPUT}"),
    "docs": ("--check: the reference differs", f"{_REFUSED}, {_OUTPUT}"),
    "drift": ("the live server breaks the manifest's clients", "an unreachable server"),
    "export server-card": (None, f"{_REFUSED}, a card its schema refuses, {_OUTPUT}"),
    "export server-json": (None, f"{_REFUSED}, an entry the registry refuses, {_OUTPUT}"),
    "export summary": (None, f"{_REFUSED}, {_OUTPUT}"),
    "import openapi": ("--check: the upstream document changed", f"a bad document, {_OUTPUT}"),
    "init": (None, "a directory that holds another project"),
    "install": (None, "an entry of that name that differs (without --force), a bad --package"),
    "protocol diff": (None, "an unknown revision"),
    "protocol generate": ("--check: the generated files differ", f"a hash mismatch, {_OUTPUT}"),
    "protocol pull": (None, "a hash mismatch, an unreachable source"),
    "pull": (None, f"an unreachable server, a manifest with errors, {_OUTPUT}"),
    "rules": (None, "an unknown option"),
    "server": ("--check: the generated files differ", f"{_REFUSED}, {_OUTPUT}"),
}


def epilog(command: str) -> str:
    """The command's row, as ``--help`` ends with it."""
    one, two = EXIT_CODES[command]
    parts = ["0 ok"]
    if one is not None:
        parts.append(f"1 {one}")
    parts += [f"2 {_USAGE} ({two})", "3 internal error (rerun with --debug)"]
    return "Exit codes: " + "; ".join(parts) + "."


def markdown_table() -> str:
    """The whole table for ``docs/reference/commands.md``."""
    rows = [
        "| command | `0` | `1` | `2` | `3` |",
        "|---|---|---|---|---|",
    ]
    for command, (one, two) in sorted(EXIT_CODES.items()):
        rows.append(
            f"| `mcpgen {command}` | ok | {one or '(never)'} | {_USAGE}: {two} | internal error |"
        )
    return "\n".join(rows) + "\n"
