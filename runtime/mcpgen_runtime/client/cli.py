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
from typing import TYPE_CHECKING, Any, TextIO, Union, cast

import click

from ..server.toolsets import TOOLS_ENV, TOOLSETS_ENV, split
from .cli_commands import CliOption, ToolCommand
from .errors import (
    ArgumentsError,
    CallTimeoutError,
    ClientError,
    ConnectionLostError,
    ProtocolError,
    ToolCallError,
)

if TYPE_CHECKING:
    from .base import ToolClient
    from .cli_lean import LeanCall

__all__ = ["ENGINE_ENV", "CliOption", "ToolCommand", "run_tool_cli"]

ENGINE_ENV = "MCPGEN_CLI_ENGINE"
"""``sdk``: every call through the typed client on the official SDK (else: the compiled stdio
path where it applies, ``cli_lean``)."""
ClientClass = Union["type[ToolClient]", Callable[[], "type[ToolClient]"]]
"""The typed client class, or a function that imports it (so ``--help`` does not)."""

EXIT_TOOL_ERROR, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_INTERRUPTED = 1, 2, 3, 130
EXIT_REFUSED = EXIT_TOOL_ERROR
"""A JSON-RPC error from a server that was reached: it answered, with an error."""


def _is_model(value: Any) -> bool:
    """A pydantic model (pydantic not loaded: none can exist; the compiled path prints dicts)."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(value, pydantic.BaseModel)


def _json_out(value: Any) -> None:
    if _is_model(value):
        value = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    elif hasattr(value, "content") and not isinstance(value, dict):  # CallResult
        value = _content(value)
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _content(result: Any) -> Any:
    blocks = [
        b.model_dump(mode="json", by_alias=True, exclude_none=True) if _is_model(b) else b
        for b in getattr(result, "content", [])
    ]
    out: dict[str, Any] = {"content": blocks}
    structured = getattr(result, "structured", None)
    if structured is not None:
        out["structuredContent"] = structured
    return out


def _client_class(ctx: click.Context) -> type[ToolClient]:
    found = ctx.obj["client_cls"]
    cls: type[ToolClient] = found if isinstance(found, type) else found()
    return cls


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


def _call(
    ctx: click.Context, body: Callable[[ToolClient], Any], lean: LeanCall | None = None
) -> None:
    import tempfile

    # a --stdio server's stderr is kept aside and shown only if it may explain a failure
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as fh:
        errlog = cast(TextIO, fh)
        code = _call_lean(ctx, lean, errlog) if lean is not None else None
        if code is None:
            errlog.seek(0)
            errlog.truncate()
            code = _settle(lambda: _run_sdk(ctx, body, errlog))
        if code == EXIT_UNREACHABLE and ctx.obj["params"].get("stdio"):
            errlog.seek(0)
            said = errlog.read()[-4000:].strip()
            if said:
                click.echo(f"the server's stderr:\n{said}", err=True)
    if code:
        sys.exit(code)


def _call_lean(ctx: click.Context, call: LeanCall, errlog: TextIO) -> int | None:
    """The compiled path's exit code, or None: the SDK path takes the command."""
    from .cli_lean import Handover, call_tool

    params = ctx.obj["params"]
    handed: list[bool] = []

    def run() -> Any:
        try:
            return call_tool(str(params["stdio"]), call, params.get("timeout"), errlog)
        except Handover:
            handed.append(True)
            return None

    code = _settle(run)
    return None if handed else code


def _run_sdk(ctx: click.Context, body: Callable[[ToolClient], Any], errlog: TextIO) -> Any:
    import anyio

    from .cli_interrupt import run_interruptible

    client = _connect(_client_class(ctx), ctx.obj["params"], errlog)
    state = {"interrupted": False}

    async def go() -> Any:
        async with client as connected:  # the connection outside: it carries tasks/cancel
            return await run_interruptible(lambda: body(connected), state)

    try:
        result = anyio.run(go)
    except Exception:
        if not state["interrupted"]:
            raise  # else: what the cancelled call raised on its way out
    if state["interrupted"]:
        raise KeyboardInterrupt
    return result


def _settle(run: Callable[[], Any]) -> int:
    """Run the call, print its result or its error; the exit code."""
    try:
        result = run()
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
    except (CallTimeoutError, ConnectionLostError) as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_UNREACHABLE
    except ProtocolError as exc:  # the server was reached and refused the request
        click.echo(f"error: {exc}", err=True)
        return EXIT_REFUSED
    except ClientError as exc:
        from .skills import SkillVerificationError

        click.echo(f"error: {exc}", err=True)
        # the server answered what its own skill entry refutes: an answer, not unreachable
        return EXIT_REFUSED if isinstance(exc, SkillVerificationError) else EXIT_UNREACHABLE
    except Exception as exc:  # noqa: BLE001 - a bug here or in the SDK: one line, no traceback
        click.echo(f"error: {type(exc).__name__}: {exc} (a bug: please report it)", err=True)
        return EXIT_UNREACHABLE
    if result is None:  # the compiled path handed the command over
        return 0
    if isinstance(result, bytes):  # a file (skills read): as it is
        sys.stdout.buffer.write(result)
        sys.stdout.flush()
        return 0
    _json_out(result)
    return 0


def _lean_call(ctx: click.Context, cmd: ToolCommand, args: dict[str, Any]) -> LeanCall | None:
    """The compiled path for this call, when it applies: a ``--stdio`` tool call of a package
    that compiled one (``run_tool_cli(package=...)``), not narrowed, and not
    ``$MCPGEN_CLI_ENGINE=sdk``."""
    obj, params = ctx.obj, ctx.obj["params"]
    if (
        obj.get("package") is None
        or cmd.index is None
        or cmd.input_model is None
        or not params.get("stdio")
        or params.get("url")
        or split(params.get("toolsets"))
        or split(params.get("tools"))
        or os.environ.get(ENGINE_ENV, "").lower() == "sdk"
    ):
        return None
    from .cli_lean import LeanCall

    call = LeanCall(
        obj["package"], cmd.tool, cmd.index, cmd.input_model, cmd.output_model, dict(args)
    )
    call.field_of = {o.param: o.field for o in cmd.options if o.field}
    call.plain_input, call.output_fields = cmd.plain_input, cmd.output_fields
    call.floats = frozenset(o.param for o in cmd.options if o.kind == "float")
    for o in cmd.options:  # what the client method's signature fills in
        if o.param not in args and o.unset is not None:
            call.given[o.param] = o.unset
    return call


def _tool_command(cmd: ToolCommand) -> click.Command:
    def callback(**kwargs: Any) -> None:
        args = {o.param: o.value(kwargs.get(o.param)) for o in cmd.options}
        args = {k: v for k, v in args.items() if v is not None}
        ctx = click.get_current_context()

        async def body(client: ToolClient) -> Any:
            from .tasks import TaskHandle

            out = await getattr(client, cmd.method)(**args)
            if isinstance(out, TaskHandle):  # a task tool: its status on stderr, Ctrl-C cancels
                return await out.follow(lambda line: click.echo(line, err=True))
            return out

        _call(ctx, body, _lean_call(ctx, cmd, args))

    return click.Command(
        cmd.name,
        callback=callback,
        params=[o.click_option() for o in cmd.options],
        help=cmd.help,
        short_help=(cmd.help or "").split("\n")[0][:80] or None,
    )


def _surface_commands(
    resources: bool, prompts: bool, skills: bool, search: bool = False
) -> list[click.Command]:
    out: list[click.Command] = []
    if search:
        from .cli_surface import search_command

        out.append(search_command(_call))
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
        self.client_cls: ClientClass | None = None

    def _selected(self, ctx: click.Context) -> frozenset[str] | None:
        # --help is eager: it runs before --toolsets/--tools are read; then the environment
        sets = split(ctx.params.get("toolsets") or os.environ.get(TOOLSETS_ENV))
        tools = split(ctx.params.get("tools") or os.environ.get(TOOLS_ENV))
        if sets is None and tools is None or self.client_cls is None:
            return None  # not narrowed: the client class is not needed (nor imported)
        from .narrow import narrowed

        found = self.client_cls
        cls: type[ToolClient] = found if isinstance(found, type) else found()
        try:
            return narrowed(cls.MCPGEN_TOOLS, cls.MCPGEN_TOOLSETS, sets, tools)
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
    client_cls: ClientClass,
    commands: Sequence[ToolCommand],
    *,
    prog: str,
    server: str | None = None,
    package: str | None = None,
    compiled: bool = False,
    resources: bool = False,
    prompts: bool = False,
    skills: bool = False,
    search: bool = False,
    argv: Sequence[str] | None = None,
) -> None:
    """Build the click group and run it (``argv`` None: the process's arguments).

    ``client_cls``: the typed client class, or a function importing it (imported only by a
    path that needs it). ``server``: the server's name (else the class's ``MCPGEN_SERVER``).
    ``package``/``compiled``: the generated package holding ``models`` and ``tools``, and
    whether its ``--stdio`` tool calls may take the compiled path (``cli_lean``; a package
    with task tools declares the tasks extension, and its calls take the SDK path).
    ``search``: the server is in search or code discovery mode (a ``search-tools`` command)."""
    if server is None:
        server = cast("type[ToolClient]", client_cls).MCPGEN_SERVER

    @click.group(
        cls=_NarrowedGroup,
        name=prog,
        help=f"Call the tools of the {server!r} MCP server; results are JSON.",
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
        ctx.obj = {
            "client_cls": client_cls,
            "params": params,
            "package": package if compiled else None,
        }

    for cmd in commands:
        group.add_command(_tool_command(cmd))
        group.tools[cmd.name] = cmd.tool
    group.client_cls = client_cls
    for extra in _surface_commands(resources, prompts, skills, search):
        group.add_command(extra)
    group.main(args=list(argv) if argv is not None else None, prog_name=prog)
