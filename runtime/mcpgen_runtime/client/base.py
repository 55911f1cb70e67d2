"""``ToolClient``: the base class of generated clients, on the official SDK's ``mcp.Client``.

A generated client subclass holds only what depends on the manifest: one typed ``async``
method per tool and the tool definitions (``MCPGEN_TOOLS``). Everything else is here:

* connecting (``Client.stdio(cmd)``, ``Client.http(url)``, or any ``mcp.Client`` target),
  the protocol mode (``auto``: ``server/discover`` then the legacy handshake; ``legacy``;
  ``2026-07-28``), a connect timeout and per-call timeouts (``with_options(timeout=...)``);
* arguments checked against the input model, then the inputSchema (jsonschema-rs, as the
  server checks them), before anything is sent (``ArgumentsError``);
* results: ``isError`` raises ``ToolCallError``; with an outputSchema, ``structuredContent``
  is validated with jsonschema-rs (``SchemaCheck``, compiled once per tool, never fetching)
  and returned as the typed output model; without one, a ``CallResult`` of wire content blocks;
* task tools (the tasks extension): a ``TaskHandle`` (``tasks``);
* 2026-07-28 ``InputRequiredResult``: the SDK's loop, with the user's elicitation / sampling
  / roots callbacks and a bound on the rounds (``max_input_rounds``); ``x-mcp-header``
  arguments are mirrored into ``Mcp-Param-*`` headers by the SDK;
* ``verify=True``: at connect, the live tools are compared with ``MCPGEN_TOOLS`` using the
  breaking-change rules (``DriftError``);
* every failure is a typed ``ClientError`` (see ``errors``), never a hang: the handshake and
  ``tools/list`` are bounded by ``connect_timeout`` (default 30 s), calls by ``timeout``.
"""

from __future__ import annotations

import copy
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, ClassVar, TextIO, TypedDict, TypeVar

from mcp import Client, StdioServerParameters
from mcp.client.session import ElicitationFnT, ListRootsFnT, LoggingFnT, SamplingFnT
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ErrorData, Implementation
from pydantic import BaseModel

from ..revisions import ConnectMode
from .drift import Change, breaking_changes
from .errors import (
    ClientError,
    ConnectError,
    DriftError,
    InputRequiredError,
    InvalidResultError,
)
from .failures import DECLINES, describe, leaf, map_error, recording_declines
from .http import Refusals
from .narrow import Narrowable
from .outputs import call_result, raise_if_error, typed_output
from .results import CallResult
from .sync import SyncClient
from .tasks import TaskCalls, TaskCreated, task_extensions
from .tool import ClientTool

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

if TYPE_CHECKING:
    import httpx2
    from typing_extensions import Self, Unpack

    from .skills import SkillsNamespace

__all__ = ["ClientOptions", "ClientTool", "Mode", "ToolClient"]

Mode = ConnectMode
_OutT = TypeVar("_OutT", bound=BaseModel)
_MAX_LIST_PAGES = 1000
_NO_LIMIT = 10.0**9  # seconds: a call without a timeout


class ClientOptions(TypedDict, total=False):
    """Keyword options of ``ToolClient`` and its ``stdio``/``http`` constructors
    (``toolsets``/``tools``: narrow the client as the server's ``--toolsets``/``--tools``)."""

    mode: Mode
    timeout: float | None
    connect_timeout: float | None
    verify: bool
    elicitation_callback: ElicitationFnT | None
    sampling_callback: SamplingFnT | None
    list_roots_callback: ListRootsFnT | None
    logging_callback: LoggingFnT | None
    max_input_rounds: int
    client_info: Implementation | None
    toolsets: Sequence[str] | None
    tools: Sequence[str] | None


class ToolClient(Narrowable, TaskCalls):
    """Base of every generated client. Use it as an async context manager::

    async with WeatherClient.stdio(["python", "-m", "weather_server"]) as weather:
        report = await weather.get_weather(city="Paris")
    """

    MCPGEN_SERVER: ClassVar[str] = "server"
    """The manifest's server name (shown in errors)."""

    def __init__(
        self, server: Any, *, describe: str | None = None, **options: Unpack[ClientOptions]
    ) -> None:
        """``server``: what ``mcp.Client`` accepts (a URL, ``StdioServerParameters``, a
        ``Transport``, or an in-process SDK ``Server``). Prefer ``stdio()`` and ``http()``."""
        self._server = server
        self._label = describe or (server if isinstance(server, str) else type(server).__name__)
        self._mode: Mode = options.get("mode", "auto")
        self._timeout = options.get("timeout")
        self._connect_timeout = options.get("connect_timeout", 30.0)
        self._verify = options.get("verify", False)
        self._options = options
        self._client: Client | None = None
        self._owner = True
        self._session_timeout: float | None = self._connect_timeout
        self._http_refusals: Refusals | None = None
        """HTTP: the last 401/403 the server answered (``http.Refusals``)."""
        self._credentials = False
        self._errlog: TextIO | None = None
        """stdio: where the server's stderr goes (None: this process's stderr)."""
        self._narrow(options.get("toolsets"), options.get("tools"))

    @classmethod
    def stdio(
        cls,
        command: Sequence[str] | str,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        errlog: TextIO | None = None,
        **options: Unpack[ClientOptions],
    ) -> Self:
        """Start ``command`` (a list, or a string split like a shell) and talk over its stdio.
        ``env`` is added to the SDK's safe default environment (PATH, HOME, ...). ``errlog``:
        where the server's stderr goes (a file with a descriptor; default: this process's
        stderr)."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ConnectError("empty stdio command")
        params = StdioServerParameters(
            command=argv[0], args=argv[1:], env=dict(env) if env is not None else None, cwd=cwd
        )
        client = cls(params, describe=f"stdio server {shlex.join(argv)!r}", **options)
        client._errlog = errlog
        return client

    @classmethod
    def http(
        cls,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        auth: httpx2.Auth | None = None,
        **options: Unpack[ClientOptions],
    ) -> Self:
        """Connect to a Streamable HTTP endpoint (``http://127.0.0.1:8000/mcp``); ``headers``
        are sent with every request.

        A protected server: ``token`` (a fixed access token, e.g. ``$MCPGEN_TOKEN`` in CI), or
        ``auth=mcpgen_runtime.oauth(url, ...)`` to sign in with OAuth (browser or client
        credentials; tokens kept and refreshed)."""
        from .http import Refusals, http_transport

        all_headers = dict(headers or {})
        if token:
            from .oauth import bearer_headers

            all_headers.update(bearer_headers(token))
        refusals = Refusals()
        client = cls(http_transport(url, all_headers, auth, refusals), describe=url, **options)
        client._http_refusals = refusals
        client._credentials = bool(token or auth is not None or "Authorization" in all_headers)
        return client

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        if self._client is not None:
            raise ClientError(f"{self._label}: already connected")
        opts = self._options
        server = self._server
        if self._errlog is not None and isinstance(server, StdioServerParameters):
            from mcp.client.stdio import stdio_client

            server = stdio_client(server, errlog=self._errlog)
        client = Client(
            server,
            mode=self._mode,
            # Bounds the handshake and tools/list; calls pass their own timeout.
            read_timeout_seconds=self._connect_timeout,
            elicitation_callback=recording_declines(opts.get("elicitation_callback")),
            sampling_callback=recording_declines(opts.get("sampling_callback")),
            list_roots_callback=opts.get("list_roots_callback"),
            logging_callback=opts.get("logging_callback"),
            input_required_max_rounds=opts.get("max_input_rounds", 10),
            client_info=opts.get("client_info"),
            extensions=task_extensions(self.MCPGEN_TOOLS),
        )
        try:
            await client.__aenter__()
        except Exception as exc:  # noqa: BLE001 - every transport failure becomes ConnectError
            refused = self._refused(None, exc)
            if refused is not None:
                raise refused from exc
            raise ConnectError(f"{self._label}: cannot connect: {describe(exc)}") from exc
        self._client = client
        if not self._verify:
            # List every page once now (verify=True does it below): the SDK mirrors x-mcp-header
            # arguments into Mcp-Param-* headers and validates structuredContent only for tools it
            # has listed, and would otherwise list the first page only, after the first call.
            try:
                await self.list_live_tools()
            except ClientError:
                pass  # the first call reports what is wrong
        if self._verify:
            try:
                changes = [c for c in await self.drift() if c.severity == "error"]
            except BaseException:
                await self.__aexit__(None, None, None)
                raise
            if changes:
                await self.__aexit__(None, None, None)
                raise DriftError(self._label, changes)
        # From now on the session's default read timeout is the call timeout, so a call without
        # one runs without a cancel scope (the SDK applies the default to each request).
        from ..server.sdk_adapter import set_client_read_timeout

        if set_client_read_timeout(client.session, self._timeout):
            self._session_timeout = self._timeout
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        client, self._client = self._client, None
        if client is not None and self._owner:
            try:
                await client.__aexit__(exc_type, exc, tb)
            except Exception:  # noqa: BLE001 - a broken transport must not mask the caller's error
                if exc is None:
                    raise

    def _refused(self, tool: str | None, exc: BaseException) -> ClientError | None:
        """The client's own error behind a failure (a credential it could not use), else the
        authorization error when the server answered 401/403."""
        refusals, own = self._http_refusals, leaf(exc)
        refused = refusals.error(self._label, tool, self._credentials) if refusals else None
        return own if isinstance(own, ClientError) else refused

    def with_options(self, *, timeout: float | None) -> Self:
        """The same connection with another per-call timeout (seconds; None: no limit)."""
        clone = copy.copy(self)
        clone._timeout = timeout
        clone._owner = False
        return clone

    def sync(self) -> SyncClient[Self]:
        """A blocking facade (its own event loop thread): ``with c.sync() as s: s.call(...)``."""
        return SyncClient(self)

    @property
    def mcp(self) -> Client:
        """The underlying ``mcp.Client`` (connected)."""
        if self._client is None:
            raise ClientError(f"{self._label}: not connected (use `async with`)")
        return self._client

    @property
    def protocol_version(self) -> str:
        return self.mcp.protocol_version

    @property
    def skills(self) -> SkillsNamespace:
        """The server's skills (the skills extension, verified reads: ``client.skills``)."""
        from .skills import SkillsNamespace

        return SkillsNamespace(self)

    @property
    def server_info(self) -> Implementation | None:
        return self.mcp.server_info

    # -- drift -------------------------------------------------------------------------------

    async def list_live_tools(self) -> list[dict[str, Any]]:
        """Every page of the server's ``tools/list`` (as the SDK keeps them), as dicts."""
        client = self.mcp
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        try:
            for _ in range(_MAX_LIST_PAGES):
                page = await client.list_tools(cursor=cursor, cache_mode="refresh")
                tools.extend(
                    t.model_dump(mode="json", by_alias=True, exclude_unset=True) for t in page.tools
                )
                cursor = page.next_cursor
                if cursor is None:
                    return tools
                if cursor in seen:
                    raise InvalidResultError(
                        "tools/list", f"the server repeated the cursor {cursor!r}"
                    )
                seen.add(cursor)
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise map_error(self._label, "tools/list", exc) from exc
        raise InvalidResultError("tools/list", f"more than {_MAX_LIST_PAGES} pages")

    async def drift(self) -> list[Change]:
        """Changes of the live tools (vs ``MCPGEN_TOOLS``) that break this client."""
        from .discovery import with_unlisted

        defs = [t.definition for t in self.MCPGEN_TOOLS]
        names = self._selected_names()
        expected = names if names is not None else [str(d["name"]) for d in defs]
        try:
            live = await with_unlisted(self.mcp, await self.list_live_tools(), expected)
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise map_error(self._label, "tools/call", exc) from exc
        return breaking_changes(defs, live, names)

    async def search_tools(self, query: str, limit: int | None = None) -> list[dict[str, Any]]:
        """The server's tool search (a server in ``search`` or ``code`` discovery mode):
        ``[{"name", "description", ...}]``, best first, only tools this caller may use."""
        from .discovery import search

        try:
            return await search(self.mcp, query, limit)
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise map_error(self._label, "tools/call", exc) from exc

    # -- calls (used by the generated methods) -------------------------------------------------

    def _mcpgen_arguments(
        self, tool: ClientTool, input_model: type[BaseModel], kwargs: Mapping[str, Any]
    ) -> dict[str, Any]:
        return tool.arguments(input_model, {k: v for k, v in kwargs.items() if v is not None})

    async def _mcpgen_call(
        self, tool: ClientTool, input_model: type[BaseModel], kwargs: Mapping[str, Any]
    ) -> CallToolResult:
        self._refuse_unselected(tool.name)
        arguments = self._mcpgen_arguments(tool, input_model, kwargs)
        client = self.mcp
        refusals: list[ErrorData] = []
        token = DECLINES.set(refusals)
        try:
            timeout = self._timeout
            if timeout is None and self._session_timeout is not None:
                timeout = _NO_LIMIT  # with_options(timeout=None) on a client with a timeout
            result = await client.call_tool(tool.name, arguments, read_timeout_seconds=timeout)
        except TaskCreated:
            raise  # a task tool's method takes it (_mcpgen_task)
        except Exception as exc:  # noqa: BLE001 - mapped to typed errors
            if refusals and isinstance(leaf(exc), MCPError):
                r = refusals[0]
                raise InputRequiredError(
                    tool.name,
                    f"a callback declined the server's input request: {r.message}",
                    r.code,
                ) from exc
            if isinstance(exc, BaseExceptionGroup) and not isinstance(leaf(exc), MCPError):
                raise InputRequiredError(tool.name, f"a callback raised: {describe(exc)}") from exc
            raise self._refused(tool.name, exc) or map_error(self._label, tool.name, exc) from exc
        finally:
            DECLINES.reset(token)
        return raise_if_error(tool, result)

    async def _mcpgen_call_output(
        self,
        tool: ClientTool,
        input_model: type[BaseModel],
        kwargs: Mapping[str, Any],
        output_model: type[_OutT],
    ) -> _OutT:
        return typed_output(tool, await self._mcpgen_call(tool, input_model, kwargs), output_model)

    async def _mcpgen_call_content(
        self, tool: ClientTool, input_model: type[BaseModel], kwargs: Mapping[str, Any]
    ) -> CallResult:
        return call_result(tool, await self._mcpgen_call(tool, input_model, kwargs))
