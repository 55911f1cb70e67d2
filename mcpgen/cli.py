"""The ``mcpgen`` command line: a click group whose subcommands load lazily.

Only this module and ``mcpgen.errors`` are imported by ``mcpgen --help``; each subcommand's
module (and whatever heavy library it needs) is imported only when that subcommand runs.
Nothing below the CLI prints or exits: commands call the core, then print and map exit codes.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from mcpgen import __version__
from mcpgen.errors import EXIT_INTERNAL, EXIT_USAGE, FindingsError, McpgenError

# name -> ("module", "attribute", "one-line help shown by --help without importing the module")
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "protocol": (
        "mcpgen.commands.protocol",
        "protocol",
        "Official MCP schemas: pull pinned revisions, generate wire models, diff revisions.",
    ),
    "check": (
        "mcpgen.commands.check",
        "check",
        "Lint tool manifests against the MCP spec's rules (pre-commit friendly).",
    ),
    "rules": ("mcpgen.commands.check", "rules", "List every check rule with its purpose."),
    "breaking": (
        "mcpgen.commands.breaking",
        "breaking",
        "Report changes between two manifests that break existing clients.",
    ),
    "server": (
        "mcpgen.commands.server",
        "server",
        "Generate a typed, runnable MCP server package from a manifest.",
    ),
    "client": (
        "mcpgen.commands.client",
        "client",
        "Generate a typed MCP client package from a manifest.",
    ),
    "cli": (
        "mcpgen.commands.client",
        "cli",
        "Generate a command line for a manifest's tools (a click CLI on the typed client).",
    ),
    "pull": (
        "mcpgen.commands.pull",
        "pull",
        "Write a manifest from a live MCP server's tools/list (every page, any revision).",
    ),
    "drift": (
        "mcpgen.commands.pull",
        "drift",
        "Compare a live MCP server's tools with a manifest (breaking-change rules).",
    ),
    "docs": (
        "mcpgen.commands.docs",
        "docs",
        "Write a reference of a server for its users (Markdown and one self-contained HTML page).",
    ),
    "export": (
        "mcpgen.commands.export",
        "export",
        "Export documents derived from a manifest (capability summary, registry server.json, "
        "Server Card).",
    ),
    "import": (
        "mcpgen.commands.importer",
        "import_group",
        "Write a manifest from an OpenAPI 3.0/3.1 document (mcpgen import openapi).",
    ),
    "install": (
        "mcpgen.commands.install",
        "install",
        "Add a generated server to an MCP client's configuration (Claude, Cursor, VS Code, ...).",
    ),
    "bundle": (
        "mcpgen.commands.bundle",
        "bundle",
        "Write an MCP Bundle (.mcpb) of a generated server for one-click install in desktop hosts.",
    ),
    "init": (
        "mcpgen.commands.init",
        "init",
        "Scaffold a new MCP server project (manifest, handlers, packaging, test).",
    ),
}


def _add_exit_codes(name: str, cmd: click.Command) -> None:
    """End ``--help`` of ``cmd`` (and of a group's subcommands) with its row of the exit-code
    table (``mcpgen.exitcodes``), so the help, the docs and the code say the same."""
    from mcpgen.exitcodes import EXIT_CODES, epilog

    if isinstance(cmd, click.Group):
        for sub_name, sub in cmd.commands.items():
            _add_exit_codes(f"{name} {sub_name}", sub)
    elif name in EXIT_CODES:
        cmd.epilog = epilog(name)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = _COMMANDS.get(cmd_name)
        if spec is None:
            return None
        module = importlib.import_module(spec[0])
        cmd: click.Command = getattr(module, spec[1])
        _add_exit_codes(cmd_name, cmd)
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="mcpgen")
@click.option(
    "--debug",
    is_flag=True,
    envvar="MCPGEN_DEBUG",
    help="Show full tracebacks for errors (for bug reports).",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """mcpgen: schema-first code generation for the Model Context Protocol.

    Exit codes: 0 ok; 1 findings or stale generated files; 2 usage or input error;
    3 internal error.
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def _debug_requested(argv: list[str]) -> bool:
    return "--debug" in argv or os.environ.get("MCPGEN_DEBUG", "") not in ("", "0")


def main(argv: list[str] | None = None) -> Any:
    args = list(sys.argv[1:] if argv is None else argv)
    debug = _debug_requested(args)
    try:
        rv = cli.main(args=args, prog_name="mcpgen", standalone_mode=False)
        # standalone_mode=False: click returns ctx.exit()'s code instead of exiting
        sys.exit(rv if isinstance(rv, int) else 0)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE if exc.exit_code == 2 else exc.exit_code)
    except click.exceptions.Abort:
        click.echo("mcpgen: aborted", err=True)
        sys.exit(EXIT_USAGE)
    except McpgenError as exc:
        if debug:
            raise
        if isinstance(exc, FindingsError):
            click.echo(exc.findings, err=True, nl=False)
        click.echo(f"mcpgen: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except RecursionError:
        if debug:
            raise
        click.echo("mcpgen: error: input is nested too deeply to process", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("mcpgen: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if debug:
            raise
        click.echo(
            f"mcpgen: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)


def _observed() -> bool:
    """A debugger, tracer or profiler watches this process: through ``sys.settrace`` or
    ``sys.setprofile``, or (Python 3.12 and later: cProfile, pdb on 3.14, coverage's sysmon
    core) as a ``sys.monitoring`` tool."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(
        monitoring.get_tool(tool) is not None for tool in range(6)
    )


def run() -> None:
    """The ``mcpgen`` console script (and ``python -m mcpgen``): ``main`` in a process of its
    own, ended the way mypy ends its runs.

    ``check`` runs in pre-commit on every commit, where start-up and shut-down are most of its
    time. Two process-level settings, measured in ``bench/bench_check.py``: fewer cyclic garbage
    collections while a large document is loaded (every object it makes is still freed or
    collected, just in larger batches), and no freeing of every object at exit. Every command has
    finished its work, closed its files and removed its temporary directories by the time
    ``main`` exits; only the standard streams are left to flush. ``main`` itself, which tests
    call in-process, exits normally, and so does ``run`` under ``--debug`` (``MCPGEN_DEBUG``), a
    debugger or a profiler (``python -m cProfile -m mcpgen ...`` writes its report at exit)."""
    import gc

    gc.set_threshold(50_000, 20, 100)
    try:
        main()
        code: str | int | None = 0
    except SystemExit as exc:
        code = exc.code
    if _debug_requested(sys.argv[1:]) or _observed():
        sys.exit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # sys.exit("message"), as Python itself would report it
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed pipe (`mcpgen check | head`): what was read is what was wanted
    os._exit(code or 0)
