"""The command line of a generated CLI package (``mcpgen cli``): a click group on the typed
client, one subcommand per tool, built from the table the package generates (and the
``skills``, ``resources`` and ``prompts`` groups: ``cli_skills``, ``cli_surface``).

Exit codes: 0 the call answered; 1 the server answered an error: the tool's result says
``isError``, or the request was refused with a JSON-RPC error (an unknown resource or prompt,
invalid params); 2 usage or arguments the tool's schema refuses; 3 the server could not be
reached, went away or timed out, or answered outside the protocol. Results are JSON on
stdout; messages on stderr. A ``--stdio`` server's own stderr (its start line, its logs) is
shown only when the call fails with 3, where it may say why. A task tool's status goes to
stderr as it changes; Ctrl-C cancels the task (``tasks/cancel``) and exits 130.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO, cast

import anyio
import click

from ..server.toolsets import TOOLS_ENV, TOOLSETS_ENV, split
from .base import ToolClient
from .cli_interrupt import run_interruptible
from .errors import (
    ArgumentsError,
    CallTimeoutError,
    ClientError,
    ConnectionLostError,
    ProtocolError,
    ToolCallError,
)
from .skills import SkillVerificationError
from .tasks import TaskHandle

__all__ = ["CliOption", "ToolCommand", "run_tool_cli"]

EXIT_TOOL_ERROR, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_INTERRUPTED = 1, 2, 3, 130
EXIT_REFUSED = EXIT_TOOL_ERROR
"""A JSON-RPC error from a server that was reached: it answered, with an error."""


class CliOption:
    """One option of a tool's subcommand: ``--flag`` -> the client method's ``param``."""

    __slots__ = ("flag", "param", "kind", "required", "help", "default", "choices", "multiple")

    def __init__(
        self,
        flag: str,
        param: str,
        kind: str,
        *,
        required: bool = False,
        help: str | None = None,  # noqa: A002 - click's word
        default: str | None = None,
        choices: Sequence[str] = (),
        multiple: bool = False,
    ) -> None:
        self.flag, self.param, self.kind = flag, param, kind
        """``kind``: str, int, float, bool or json (any other schema: a JSON text)."""
        self.required, self.help, self.default = required, help, default
        """``default``: the schema's default, shown in the help (the server applies it)."""
        self.choices, self.multiple = tuple(choices), multiple

    def click_option(self) -> click.Option:
        types: dict[str, Any] = {"str": click.STRING, "int": click.INT, "float": click.FLOAT}
        text = self.help or ""
        if self.kind == "json":
            text = (text + " (JSON)").strip()
        if self.default is not None:
            text = f"{text}  [default: {self.default}]".strip()
        shown = False
        if self.kind == "bool":
            return click.Option(
                [f"--{self.flag}/--no-{self.flag}", self.param],
                default=None,
                required=self.required,
                help=text,
                show_default=shown,
            )
        kind: Any = click.Choice(self.choices) if self.choices else types.get(self.kind, str)
        return click.Option(
            [f"--{self.flag}", self.param],
            type=kind,
            required=self.required,
            multiple=self.multiple,
            help=text,
            show_default=shown,
            metavar="JSON" if self.kind == "json" else None,
        )

    def value(self, raw: Any) -> Any:
        if raw is None or (self.multiple and not raw):
            return None
        if self.kind == "json":
            try:
                return json.loads(raw)
            except ValueError as exc:
                raise click.BadParameter(f"not JSON: {exc}", param_hint=f"--{self.flag}") from None
        return list(raw) if self.multiple else raw


class ToolCommand:
    """One tool as a subcommand: its name on the command line, the client method, the help."""

    __slots__ = ("name", "tool", "method", "help", "options")

    def __init__(
        self, name: str, tool: str, method: str, help: str | None, options: Sequence[CliOption]
    ) -> None:  # noqa: A002
        self.name, self.tool, self.method, self.help = name, tool, method, help
        self.options = tuple(options)


def _json_out(value: Any) -> None:
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    elif hasattr(value, "content") and not isinstance(value, dict):  # CallResult
        value = _content(value)
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _content(result: Any) -> Any:
    from pydantic import BaseModel

    blocks = [
        b.model_dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(b, BaseModel)
        else b
        for b in getattr(result, "content", [])
    ]
    out: dict[str, Any] = {"content": blocks}
    structured = getattr(result, "structured", None)
    if structured is not None:
        out["structuredContent"] = structured
    return out


def _connect(
    client_cls: type[ToolClient], params: dict[str, Any], errlog: TextIO | None = None
) -> ToolClient:
    stdio, url = params.get("stdio"), params.get("url")
    if bool(stdio) == bool(url):
        raise click.UsageError("give the server: --stdio COMMAND or --url URL")
    options: dict[str, Any] = {}
    for key in ("toolsets", "tools"):
        names = split(params.get(key))
        if names:
            options[key] = names
    if params.get("timeout") is not None:
        options["timeout"] = params["timeout"]
    try:
        if stdio:
            # the server command gets this shell's environment, as a command run from it would
            return client_cls.stdio(stdio, env=dict(os.environ), errlog=errlog, **options)
        return client_cls.http(str(url), token=params.get("token") or None, **options)
    except ValueError as exc:  # an unknown toolset or tool
        raise click.UsageError(str(exc)) from None


def _call(ctx: click.Context, body: Callable[[ToolClient], Any]) -> None:
    import tempfile

    # a --stdio server's stderr is kept aside and shown only if it may explain a failure
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as fh:
        errlog = cast(TextIO, fh)
        code = _call_with(ctx, body, errlog)
        if code == EXIT_UNREACHABLE and ctx.obj["params"].get("stdio"):
            errlog.seek(0)
            said = errlog.read()[-4000:].strip()
            if said:
                click.echo(f"the server's stderr:\n{said}", err=True)
    if code:
        sys.exit(code)


def _call_with(ctx: click.Context, body: Callable[[ToolClient], Any], errlog: TextIO) -> int:
    client = _connect(ctx.obj["client_cls"], ctx.obj["params"], errlog)

    state = {"interrupted": False}

    async def go() -> Any:
        async with client as connected:  # the connection outside: it carries tasks/cancel
            return await run_interruptible(lambda: body(connected), state)

    try:
        try:
            result = anyio.run(go)
        except Exception:
            if not state["interrupted"]:
                raise  # else: what the cancelled call raised on its way out
        if state["interrupted"]:
            raise KeyboardInterrupt
    except click.ClickException:
        raise
    except KeyboardInterrupt:  # Ctrl-C: a running task was cancelled (TaskHandle.follow)
        click.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except ArgumentsError as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_USAGE
    except ToolCallError as exc:
        click.echo(f"error: {exc}", err=True)
        if exc.structured is not None or exc.content:
            _json_out({"isError": True, **_content(exc)})
        return EXIT_TOOL_ERROR
    except SkillVerificationError as exc:  # the server answered what its own entry refutes
        click.echo(f"error: {exc}", err=True)
        return EXIT_REFUSED
    except (CallTimeoutError, ConnectionLostError) as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_UNREACHABLE
    except ProtocolError as exc:  # the server was reached and refused the request
        click.echo(f"error: {exc}", err=True)
        return EXIT_REFUSED
    except ClientError as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_UNREACHABLE
    except Exception as exc:  # noqa: BLE001 - a bug here or in the SDK: one line, no traceback
        click.echo(f"error: {type(exc).__name__}: {exc} (a bug: please report it)", err=True)
        return EXIT_UNREACHABLE
    if isinstance(result, bytes):  # a file (skills read): as it is
        sys.stdout.buffer.write(result)
        sys.stdout.flush()
        return 0
    _json_out(result)
    return 0


def _tool_command(cmd: ToolCommand) -> click.Command:
    def callback(**kwargs: Any) -> None:
        args = {o.param: o.value(kwargs.get(o.param)) for o in cmd.options}
        args = {k: v for k, v in args.items() if v is not None}
        ctx = click.get_current_context()

        async def body(client: ToolClient) -> Any:
            out = await getattr(client, cmd.method)(**args)
            if isinstance(out, TaskHandle):  # a task tool: its status on stderr, Ctrl-C cancels
                return await out.follow(lambda line: click.echo(line, err=True))
            return out

        _call(ctx, body)

    return click.Command(
        cmd.name,
        callback=callback,
        params=[o.click_option() for o in cmd.options],
        help=cmd.help,
        short_help=(cmd.help or "").split("\n")[0][:80] or None,
    )


def _search_command() -> click.Command:
    """``search-tools QUERY [--limit N]``: the server's tool search (search and code modes);
    the per-tool commands call their tools by name, as always."""

    @click.command("search-tools", help="Search the server's tools by what you want to do (JSON).")
    @click.argument("query")
    @click.option("--limit", type=click.IntRange(1, 50), default=None, help="At most N tools.")
    @click.pass_context
    def search_tools(ctx: click.Context, query: str, limit: int | None) -> None:
        async def body(client: ToolClient) -> Any:
            return {"tools": await client.search_tools(query, limit)}

        _call(ctx, body)

    return search_tools


def _surface_commands(
    resources: bool, prompts: bool, skills: bool, search: bool = False
) -> list[click.Command]:
    out: list[click.Command] = [_search_command()] if search else []
    if skills:
        from .cli_skills import skills_group

        out.append(skills_group(_call))
    if resources or prompts:
        from .cli_surface import prompts_group, resources_group

        if resources:
            out.append(resources_group(_call))
        if prompts:
            out.append(prompts_group(_call))
    return out


class _NarrowedGroup(click.Group):
    """Lists and runs only the subcommands of the tools ``--toolsets``/``--tools`` (or
    ``$MCPGEN_TOOLSETS``/``$MCPGEN_TOOLS``) select, as the server and the client narrow."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tools: dict[str, str] = {}
        self.client_cls: type[ToolClient] = ToolClient

    def _selected(self, ctx: click.Context) -> frozenset[str] | None:
        from .narrow import narrowed

        # --help is eager: it runs before --toolsets/--tools are read; then the environment
        sets = split(ctx.params.get("toolsets") or os.environ.get(TOOLSETS_ENV))
        tools = split(ctx.params.get("tools") or os.environ.get(TOOLS_ENV))
        try:
            return narrowed(
                self.client_cls.MCPGEN_TOOLS, self.client_cls.MCPGEN_TOOLSETS, sets, tools
            )
        except ValueError as exc:
            raise click.UsageError(str(exc), ctx) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        chosen = self._selected(ctx)
        names = super().list_commands(ctx)
        return [
            n for n in names if chosen is None or n not in self.tools or self.tools[n] in chosen
        ]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        chosen = self._selected(ctx)
        if chosen is not None and cmd_name in self.tools and self.tools[cmd_name] not in chosen:
            raise click.UsageError(
                f"{cmd_name!r} is left out by --toolsets/--tools (selected: "
                f"{', '.join(sorted(chosen)) or 'none'})",
                ctx,
            )
        return super().get_command(ctx, cmd_name)


def run_tool_cli(
    client_cls: type[ToolClient],
    commands: Sequence[ToolCommand],
    *,
    prog: str,
    resources: bool = False,
    prompts: bool = False,
    skills: bool = False,
    search: bool = False,
    argv: Sequence[str] | None = None,
) -> None:
    """Build the click group and run it (``argv`` None: the process's arguments); ``search``:
    the server is in search or code discovery mode (a ``search-tools`` command)."""

    @click.group(
        cls=_NarrowedGroup,
        name=prog,
        help=f"Call the tools of the {client_cls.MCPGEN_SERVER!r} MCP server; results are JSON.",
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    @click.option(
        "--stdio",
        metavar="COMMAND",
        envvar="MCPGEN_CLI_STDIO",
        help="Start the server: a command line.",
    )
    @click.option("--url", metavar="URL", envvar="MCPGEN_CLI_URL", help="A Streamable HTTP server.")
    @click.option(
        "--token", envvar="MCPGEN_TOKEN", help="Bearer token for --url (prefer $MCPGEN_TOKEN)."
    )
    @click.option("--timeout", type=float, default=None, help="Seconds per call.")
    @click.option(
        "--toolsets",
        default=None,
        metavar="A,B",
        envvar=TOOLSETS_ENV,
        help="Only these toolsets' tools.",
    )
    @click.option(
        "--tools", default=None, metavar="X,Y", envvar=TOOLS_ENV, help="Only these tools."
    )
    @click.pass_context
    def group(ctx: click.Context, /, **params: Any) -> None:
        ctx.obj = {"client_cls": client_cls, "params": params}

    for cmd in commands:
        group.add_command(_tool_command(cmd))
        group.tools[cmd.name] = cmd.tool
    group.client_cls = client_cls
    for extra in _surface_commands(resources, prompts, skills, search):
        group.add_command(extra)
    group.main(args=list(argv) if argv is not None else None, prog_name=prog)
