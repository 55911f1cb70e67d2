"""Errors that end a command with one clear line (never a traceback).

Exit codes (``mcpgen.exitcodes`` has each command's row; docs/reference/commands.md shows them):
  0  success / clean
  1  findings at or above --fail-on, or generated files out of date (--check)
  2  usage error or unreadable input (bad file, bad schema, hash mismatch, unknown revision,
     a manifest a generator refuses, an output path a command may not replace)
  3  internal error (a bug in mcpgen; rerun with --debug for the traceback)
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


class McpgenError(Exception):
    """A user-facing error: bad input, missing file, hash mismatch, etc.

    ``path``/``line``/``col`` locate the cause when known (1-based line and column).
    """

    exit_code = EXIT_USAGE

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col

    def location(self) -> str:
        if self.path is None:
            return ""
        loc = self.path
        if self.line is not None:
            loc += f":{self.line}"
            if self.col is not None:
                loc += f":{self.col}"
        return loc

    def __str__(self) -> str:
        loc = self.location()
        return f"{loc}: {self.message}" if loc else self.message


class FindingsError(McpgenError):
    """A generator (``server``, ``client``, ``docs``, ``export``, ``bundle``) on a manifest that
    ``mcpgen check`` rejects: the findings, in check's text format, are printed before the
    one-line error; exit 2 (an input the command refuses; ``mcpgen.exitcodes``)."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, findings: str) -> None:
        super().__init__(message)
        self.findings = findings
