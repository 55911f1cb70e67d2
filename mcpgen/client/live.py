"""Reading a live MCP server's tools (``mcpgen pull`` and ``mcpgen drift``).

Connects with the official SDK's ``mcp.Client`` (``auto`` mode by default: ``server/discover``
for 2026-07-28 servers, the ``initialize`` handshake for every older revision), reads every page
of ``tools/list`` *as sent* (raw JSON objects, key order kept, nothing dropped or re-shaped by
client-side models; the SDK still checks each page against the negotiated revision's schema),
and closes. Everything is bounded by one timeout; every failure is one ``McpgenError`` line.
"""

from __future__ import annotations

import logging
import os
import shlex
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mcpgen.errors import McpgenError

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

MAX_PAGES = 1000


@dataclass(frozen=True)
class Credentials:
    """How to authenticate to an HTTP server: a fixed ``token``, or OAuth (``oauth``: a person
    signs in with the browser; ``client_id`` + ``client_secret``: client credentials; a
    workload identity token file or variable: the jwt-bearer grant; ``idp``: an ID-JAG from the
    enterprise identity provider). ``dpop``: DPoP-bound tokens (None: when the server asks)."""

    token: str | None = field(default=None, repr=False)
    oauth: bool = False
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    issuer: str | None = None
    dpop: bool | None = None
    workload_token_file: str | None = None
    workload_token_env: str | None = None
    idp: Any = None
    """An ``mcpgen_runtime.EnterpriseIdP``."""

    @property
    def signs_in(self) -> bool:
        grants = (self.workload_token_file, self.workload_token_env, self.idp)
        return self.oauth or bool(self.client_id) or any(g is not None for g in grants)

    def auth(self, url: str) -> Any:
        """The ``httpx2.Auth`` of these credentials for ``url`` (None: a token or nothing)."""
        if not self.signs_in:
            return None
        from mcpgen_runtime import CredentialError
        from mcpgen_runtime.client.oauth import oauth

        try:
            return oauth(
                url,
                client_name="mcpgen",
                client_id=self.client_id,
                client_secret=self.client_secret,
                issuer=self.issuer,
                dpop=self.dpop,
                workload_token_file=self.workload_token_file,
                workload_token_env=self.workload_token_env,
                idp=self.idp,
            )
        except (ValueError, CredentialError) as exc:
            raise McpgenError(str(exc)) from None


@dataclass(frozen=True)
class Target:
    stdio: str | None = None
    url: str | None = None
    credentials: Credentials = field(default_factory=Credentials)

    @property
    def label(self) -> str:
        return self.url if self.url is not None else f"stdio:{self.stdio}"


@dataclass(frozen=True)
class LiveServer:
    tools: list[dict[str, Any]]
    server: dict[str, Any]
    """``server`` block for a manifest: name, version, title, description, websiteUrl, ..."""
    protocol: str
    """The negotiated revision."""
    label: str
    warnings: tuple[str, ...] = ()
    """What the SDK logged while reading (e.g. a tool dropped for an invalid x-mcp-header)."""
    resources: list[dict[str, Any]] = field(default_factory=list)
    templates: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    """What ``resources/list``, ``resources/templates/list`` and ``prompts/list`` sent (every
    page), when the server has those capabilities."""
    skills: list[Any] = field(default_factory=list)
    """The skills the server serves (``pull_skills.PulledSkill``: files read and verified)."""


def parse_target(
    stdio: str | None, url: str | None, credentials: Credentials | None = None
) -> Target:
    if (stdio is None) == (url is None):
        raise McpgenError("give exactly one of --stdio CMD or --url URL")
    if stdio is not None:
        try:
            argv = shlex.split(stdio)
        except ValueError as exc:
            raise McpgenError(f"--stdio: cannot split the command: {exc}") from None
        if not argv:
            raise McpgenError("--stdio: empty command")
    if url is not None and not url.lower().startswith(("http://", "https://")):
        raise McpgenError(f"--url must be an http:// or https:// URL, not {url!r}")
    creds = credentials or Credentials()
    if url is None and (creds.token or creds.signs_in):
        raise McpgenError("--token, --oauth, --client-id and the sign-in options apply to --url")
    return Target(stdio=stdio, url=url, credentials=creds)


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _describe(exc: BaseException) -> str:
    exc = _leaf(exc)
    from mcp.shared.exceptions import MCPError

    if isinstance(exc, MCPError):
        return f"{exc.message} (JSON-RPC error {exc.code})"
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        errs = exc.errors()
        first = errs[0] if errs else {"loc": (), "msg": str(exc)}
        loc = "/".join(str(p) for p in first["loc"])
        return f"malformed answer: {loc or '(root)'}: {first['msg']}"
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions[:3])
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _check_tools(tools: list[Any], label: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise McpgenError(f"{label}: tools/list item {i} is not an object")
        name = tool.get("name")
        if not isinstance(name, str):
            raise McpgenError(f"{label}: tools/list item {i} has no string name")
        if not isinstance(tool.get("inputSchema"), dict):
            raise McpgenError(f"{label}: tool {name!r} has no inputSchema object")
        out.append(tool)
    return out


async def _fetch(
    target: Target,
    mode: str,
    timeout: float,
    errlog: Any = None,
    expected: Sequence[str] = (),
) -> LiveServer:
    from mcp import StdioServerParameters

    server: Any
    if target.stdio is not None:
        from mcp.client.stdio import stdio_client

        argv = shlex.split(target.stdio)
        spawn = StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
        server = stdio_client(spawn, errlog=errlog) if errlog is not None else spawn
    else:
        from mcpgen_runtime.client.http import Refusals, http_transport
        from mcpgen_runtime.client.oauth import bearer_headers

        assert target.url is not None
        creds = target.credentials
        headers = bearer_headers(creds.token) if creds.token else {}
        refusals = Refusals(hint="set $MCPGEN_TOKEN, or sign in with --oauth or --client-id")
        auth = creds.auth(target.url)
        server = http_transport(target.url, headers, auth, refusals)
    try:
        return await _read(target, server, mode, timeout, expected)
    except BaseException as exc:
        if target.url is not None:
            from mcpgen_runtime import CredentialError

            refused = refusals.error(target.label, None, bool(headers) or auth is not None)
            inner = _leaf(exc)
            if isinstance(inner, CredentialError):  # the cause of any 401 that followed
                raise McpgenError(f"{target.label}: {inner}") from None
            if refused is not None:
                raise McpgenError(str(refused)) from None
        raise


async def _read(
    target: Target, server: Any, mode: str, timeout: float, expected: Sequence[str] = ()
) -> LiveServer:
    """Every page of the server's lists, through ``server`` (what ``mcp.Client`` takes)."""
    import anyio
    import mcp_types as types
    from mcp import Client
    from pydantic import BaseModel, ConfigDict, Field

    class RawPage(BaseModel):
        """A list page as sent (items stay plain JSON objects)."""

        model_config = ConfigDict(extra="allow")
        next_cursor: Any = Field(default=None, alias="nextCursor")

    async def every_page(client: Any, request: Any, key: str, method: str) -> list[Any]:
        """Every item of a paginated list (cursors followed, a repeat or too many pages is an
        error)."""
        items: list[Any] = []
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            page = await client.session.send_request(request(params=params), RawPage)
            got = (page.model_extra or {}).get(key)
            if not isinstance(got, list):
                raise McpgenError(f"{target.label}: {method} answer has no {key} array")
            items.extend(got)
            nxt = page.next_cursor
            if nxt is None:
                return items
            if not isinstance(nxt, str) or nxt in seen:
                raise McpgenError(f"{target.label}: {method} repeats the cursor {nxt!r}")
            seen.add(nxt)
            cursor = nxt
        raise McpgenError(f"{target.label}: {method} has more than {MAX_PAGES} pages")

    tools: list[Any] = []
    resources: list[Any] = []
    templates: list[Any] = []
    prompts: list[Any] = []
    with anyio.fail_after(timeout):
        async with Client(server, mode=mode, read_timeout_seconds=timeout, cache=None) as client:
            tools = await every_page(client, types.ListToolsRequest, "tools", "tools/list")
            if expected:
                from mcpgen_runtime.client.discovery import with_unlisted

                tools = await with_unlisted(client, tools, expected)
            caps = client.server_capabilities
            if caps is not None and caps.resources is not None:
                resources = await every_page(
                    client, types.ListResourcesRequest, "resources", "resources/list"
                )
                templates = await every_page(
                    client,
                    types.ListResourceTemplatesRequest,
                    "resourceTemplates",
                    "resources/templates/list",
                )
            if caps is not None and caps.prompts is not None:
                prompts = await every_page(
                    client, types.ListPromptsRequest, "prompts", "prompts/list"
                )
            skill_notes: list[str] = []
            skills = await _skills(client, target.label, skill_notes)
            info = client.server_info
            srv: dict[str, Any] = (
                info.model_dump(mode="json", by_alias=True, exclude_none=True)
                if info is not None
                else {}
            )
            if client.instructions:
                srv["instructions"] = client.instructions
            protocol = client.protocol_version
    return LiveServer(
        _check_tools(tools, target.label),
        srv,
        protocol,
        target.label,
        resources=_objects(resources),
        templates=_objects(templates),
        prompts=_objects(prompts),
        skills=skills,
        warnings=tuple(skill_notes),
    )


async def _skills(client: Any, label: str, notes: list[str]) -> list[Any]:
    from mcpgen.client.pull_skills import read_skills

    return await read_skills(client, label, notes)


def _objects(items: list[Any]) -> list[dict[str, Any]]:
    """The JSON objects of a list (anything else a server sent is dropped)."""
    return [i for i in items if isinstance(i, dict)]


class _Collect(logging.Handler):
    """Keeps the SDK's log lines (it logs tracebacks for a server's garbage output) so the
    command prints one line instead: the last one joins the error, warnings are shown."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = " ".join(record.getMessage().split())
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            text += f" ({type(exc).__name__})"
        self.lines.append(text[:300])


def fetch_live(
    target: Target,
    *,
    mode: str = "auto",
    timeout: float = 30.0,
    expected: Sequence[str] = (),
) -> LiveServer:
    """The server's tools (every page), its info and the negotiated revision. The SDK's log
    lines are collected (``warnings``), never printed as tracebacks. ``expected``: tool names
    to read with ``get_tool_schemas`` when the server (in search or code discovery mode) does
    not list them (``mcpgen drift``: the manifest's tools)."""
    import anyio

    sdk_log = logging.getLogger("mcp")
    collect = _Collect()
    saved = sdk_log.propagate
    sdk_log.addHandler(collect)
    sdk_log.propagate = False
    # The server's stderr goes to a file: on failure its last line joins the error (a crashing
    # server's traceback is not printed), on success it is dropped.
    errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
    try:
        live = anyio.run(_fetch, target, mode, timeout, errlog, tuple(expected))
        return LiveServer(
            live.tools,
            live.server,
            live.protocol,
            live.label,
            (*collect.lines, *live.warnings),
            resources=live.resources,
            templates=live.templates,
            prompts=live.prompts,
            skills=live.skills,
        )
    except McpgenError:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - one line, never a traceback
        inner = exc
        while isinstance(inner, BaseExceptionGroup) and len(inner.exceptions) == 1:
            inner = inner.exceptions[0]
        if isinstance(inner, McpgenError):
            raise inner from None
        said = f"; the client logged: {collect.lines[-1]}" if collect.lines else ""
        last = _last_line(errlog)
        if last:
            said += f"; the server's stderr ends: {last}"
        if isinstance(inner, TimeoutError):
            raise McpgenError(
                f"{target.label}: no complete answer within {timeout:g} s (--timeout){said}"
            ) from None
        raise McpgenError(
            f"{target.label}: cannot read the tools: {_describe(exc)}{said}"
        ) from None
    finally:
        sdk_log.removeHandler(collect)
        sdk_log.propagate = saved
        errlog.close()


def _last_line(errlog: Any) -> str:
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [ln.strip() for ln in errlog.read()[-4000:].splitlines() if ln.strip()]
    except (OSError, ValueError):
        return ""
    return " ".join(lines[-1].split())[:300] if lines else ""
