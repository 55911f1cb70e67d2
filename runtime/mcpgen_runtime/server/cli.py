"""``python -m <package>``: the command line of every generated server (stdio or HTTP)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Callable, Coroutine, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from . import flags, toolsets
from .server_runtime import ServerRuntime, runtime_of, runtime_required

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from .options import StartupOptions

__all__ = ["Prepared", "prepare", "run_cli", "serve"]

WORKER_ENV = "MCPGEN_WORKER_SPEC"
"""How ``--workers N`` tells each uvicorn worker process what to build (JSON)."""


def _check_state(url: str | None, parser: argparse.ArgumentParser) -> None:
    """``--state``: refuse to start, in one line, with a URL that cannot be used or reached."""
    import asyncio

    from .state import StateError, open_state

    try:
        asyncio.run(open_state(url).check())
    except StateError as exc:
        parser.error(str(exc))


def _startup(spec: Mapping[str, Any]) -> StartupOptions:
    """The start-up options ``create_server`` passes on to ``build_server``."""
    key = spec.get("request_state_key")
    return {
        "limits": spec.get("limits"),
        "request_state_key": bytes.fromhex(key) if key else None,
        "state": spec.get("state"),
        "toolsets": spec.get("toolsets"),
        "tools": spec.get("tools"),
        "inline_schema_refs": spec.get("inline_schema_refs"),
    }


def _worker_app() -> Any:
    """uvicorn factory of each ``--workers`` process: rebuild the server from the spec."""
    spec = json.loads(os.environ[WORKER_ENV])
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, str(spec["log_level"]).upper(), logging.WARNING),
        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s",
    )

    def load(path: str) -> Any:
        module, _, name = path.partition(":")
        obj: Any = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj

    from .http_app import http_app
    from .httpfix import quiet_access_log

    quiet_access_log()
    create = load(spec["create"])
    handlers = load(spec["handlers"])()
    app = http_app(create(handlers, page_size=spec["page_size"], **_startup(spec)), spec)
    _settle()
    return app


def _settle() -> None:
    """Everything start-up built (the SDK's modules and models, the server; more with
    ``--state redis``: its client and ``limits``) lives as long as the process. ``gc.freeze``
    takes it out of the collector's full passes, which otherwise walk it again every few
    hundred calls: measured per call with ``bench/bench_state.py --instructions`` (a replica
    with ``--state redis``; nothing measurable with memory state)."""
    import gc

    gc.freeze()


def start_line(
    server: Server[Any] | ServerRuntime, opts: argparse.Namespace, oauth: Any = None
) -> str:
    """The one line a server prints (stderr) as it starts: what, where, which revisions
    (``server``: the SDK's, or a runtime the SDK has not been put around yet)."""
    from ..revisions import REVISIONS

    if opts.http:
        host = f"[{opts.host}]" if ":" in opts.host else opts.host
        where = f"Streamable HTTP at http://{host}:{opts.port}{opts.path}"
        if opts.workers > 1:
            where += f" ({opts.workers} workers)"
        if oauth is not None:
            source = oauth.issuer or oauth.jwks_uri or oauth.introspection_url
            where += f", OAuth resource {oauth.resource} (tokens from {source})"
    else:
        where = "stdio"
    runtime = server if isinstance(server, ServerRuntime) else runtime_of(server)
    named: Any = server.info if isinstance(server, ServerRuntime) else server
    what = f"{named.name} {named.version}" if named.version else named.name
    if runtime is not None and len(runtime.tools.tools) < runtime.package_tools:
        served, total = len(runtime.tools.tools), runtime.package_tools
        where += f", {served} of {total} tools (--list-toolsets)"
    return (
        f"mcpgen: {what} serving MCP over {where} "
        f"(protocol revisions {REVISIONS[0]} to {REVISIONS[-1]})"
    )


class Prepared(NamedTuple):
    """A server built from the command line, ready to serve: the SDK's ``Server``, or (the
    lean engine on stdio) its runtime alone, the SDK's server made on first need."""

    server: Server[Any] | ServerRuntime
    opts: argparse.Namespace
    spec: dict[str, Any]
    handlers: Any
    create: Callable[..., Server[Any]]
    use_uvloop: bool


def run_cli(
    create: Callable[..., Server[Any]],
    handlers: Any,
    argv: Sequence[str] | None = None,
    *,
    prog: str | None = None,
) -> None:
    """``python -m <package> [--http [--host H] [--port N] [--workers N]] [--page-size N] ...``."""
    prepared = prepare(create, handlers, argv, prog=prog)
    if prepared is not None:
        serve(prepared)


def prepare(
    create: Callable[..., Server[Any]],
    handlers: Any,
    argv: Sequence[str] | None = None,
    *,
    prog: str | None = None,
) -> Prepared | None:
    """The server the command line asks for, built (None: nothing to serve, as with
    ``--list-toolsets``); the start line printed. Bad options exit 2 (``parser.error``)."""
    from .loading import resolve_handlers

    parser = flags.parser(prog)
    opts = parser.parse_args(argv)
    if opts.engine not in ("lean", "sdk"):
        parser.error(f"${flags.ENGINE_ENV} must be lean or sdk (got {opts.engine!r})")
    use_uvloop = opts.loop != "asyncio" and importlib.util.find_spec("uvloop") is not None
    if opts.loop == "uvloop" and not use_uvloop:
        parser.error("--loop uvloop: uvloop is not installed (pip install uvloop)")
    if opts.http_parser == "httptools" and importlib.util.find_spec("httptools") is None:
        parser.error("--http-parser httptools: httptools is not installed (pip install httptools)")
    if opts.workers < 1:
        parser.error("--workers must be at least 1")
    if opts.workers > 1 and not opts.http:
        parser.error("--workers needs --http")
    if opts.server_card is not None and not opts.http:
        parser.error("--server-card applies to --http (a card is served over HTTP, not stdio)")
    if isinstance(opts.server_card, str):
        from ..server_card import load_card

        try:
            load_card(opts.server_card)
        except ValueError as exc:
            parser.error(f"--server-card {exc}")
    tokens = flags.tokens(opts)
    if tokens and not opts.http:
        parser.error("--auth-token applies to --http (stdio is not reachable by other processes)")
    if not opts.http and (opts.auth_issuer or opts.auth_jwks_uri or opts.auth_introspection_url):
        parser.error("--auth-* options apply to --http (stdio is not reachable by others)")
    oauth = {
        "issuer": opts.auth_issuer,
        "jwks_uri": opts.auth_jwks_uri,
        "resource": opts.auth_resource,
        "audience": opts.auth_audience,
        "introspection_url": opts.auth_introspection_url,
        "expose_token": opts.auth_expose_token,
        "dpop": opts.auth_dpop,
        "dpop_nonce": opts.auth_dpop_nonce,
        "dpop_window": opts.auth_dpop_window,
    }
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, str(opts.log_level).upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from .state import STATE_ENV

    if opts.state or os.environ.get(STATE_ENV):
        _check_state(opts.state, parser)
    from .sealed import configured_keys

    try:  # each process reads the configured keys itself (the current and previous ones)
        configured = configured_keys()
    except ValueError as exc:
        parser.error(str(exc))
    key = None
    if configured is None and opts.workers > 1:
        key = os.urandom(32)  # one key for every worker: a retry may land on any of them
    if configured is None and (opts.state or os.environ.get(STATE_ENV)):
        print(
            "mcpgen: warning: --state is shared but no requestState key is configured "
            "($MCPGEN_REQUEST_STATE_KEY_FILE or $MCPGEN_REQUEST_STATE_KEY): a multi-round "
            "call retried on another replica will be refused",
            file=sys.stderr,
        )
    spec: dict[str, Any] = {
        "host": opts.host,
        "port": opts.port,
        "path": opts.path,
        "stateless": opts.stateless,
        "json_response": opts.json_response,
        "page_size": opts.page_size,
        "log_level": opts.log_level,
        "limits": flags.limits(opts, parser),
        "max_body_bytes": opts.max_body_bytes,
        "resumable": opts.resumable,
        "tokens": tokens,
        "oauth": oauth,
        "request_state_key": key.hex() if key else None,
        "state": opts.state,
        "toolsets": ["all"] if opts.list_toolsets else toolsets.split(opts.toolsets),
        "tools": toolsets.split(opts.tools),
        "inline_schema_refs": True if opts.inline_schema_refs else None,
        "server_card": opts.server_card,
        "engine": opts.engine,
    }
    handlers = resolve_handlers(handlers)
    make = _runtime_factory(create) if _lean_stdio(opts) else None
    server: Server[Any] | ServerRuntime
    try:
        if make is not None:
            server = make(handlers, page_size=opts.page_size, **_startup(spec))
        else:
            server = create(handlers, page_size=opts.page_size, **_startup(spec))
    except toolsets.SelectionError as exc:
        parser.error(str(exc))
    if opts.list_toolsets:
        runtime = server if isinstance(server, ServerRuntime) else runtime_required(server)
        defs = [t.definition for t in runtime.tools.tools]
        print(toolsets.describe(defs, runtime.toolsets))
        return None
    settings = None
    if opts.http:  # the HTTP stack is imported for --http only
        from .auth.config import AuthConfigError
        from .http_app import oauth_settings

        assert not isinstance(server, ServerRuntime)
        try:
            settings = oauth_settings(server, spec)
        except AuthConfigError as exc:
            parser.error(str(exc))
        if settings is not None and tokens:
            parser.error(
                "--auth-token and OAuth (server.auth, --auth-issuer, ...) exclude each other"
            )
    print(start_line(server, opts, settings), file=sys.stderr, flush=True)
    _settle()
    return Prepared(server, opts, spec, handlers, create, use_uvloop)


def _lean_stdio(opts: argparse.Namespace) -> bool:
    """Whether the command line serves stdio with the lean engine (which may start without
    the SDK)."""
    return not opts.http and opts.engine == "lean" and opts.stdio_transport != "sdk"


def _runtime_factory(create: Callable[..., Any]) -> Callable[..., ServerRuntime] | None:
    """The generated package's ``create_runtime`` beside its ``create_server`` (``create``),
    which builds the same server without the SDK; None for anything else (a package generated
    for runtime API 2.2 or older, or a ``create`` of the user's own), served as before."""
    if getattr(create, "__name__", None) != "create_server":
        return None
    module = sys.modules.get(getattr(create, "__module__", None) or "")
    make = getattr(module, "create_runtime", None)
    return make if callable(make) else None


def _sdk(server: Server[Any] | ServerRuntime) -> Server[Any]:
    """The SDK's server of what ``prepare`` made (made now if it was not)."""
    if isinstance(server, ServerRuntime):
        from .sdk_server import sdk_server

        return sdk_server(server)
    return server


def serve(prepared: Prepared, handover: Any = None) -> None:
    """Serve ``prepared`` until the client goes (stdio) or the process is stopped (HTTP);
    ``handover``: what the lean engine's fast boot already read and answered (stdio)."""
    made, opts, spec, handlers, create, use_uvloop = prepared
    if opts.http:
        server = _sdk(made)
        import uvicorn

        loop = "uvloop" if use_uvloop else "asyncio"
        if opts.workers > 1:
            spec["create"] = f"{create.__module__}:{create.__qualname__}"
            cls = type(handlers)
            spec["handlers"] = f"{cls.__module__}:{cls.__qualname__}"
            os.environ[WORKER_ENV] = json.dumps(spec)
            uvicorn.run(
                "mcpgen_runtime.server.cli:_worker_app",
                factory=True,
                workers=opts.workers,
                host=opts.host,
                port=opts.port,
                log_level=str(opts.log_level).lower(),
                loop=loop,
                http=opts.http_parser,
            )
            return
        from .http_app import http_app
        from .httpfix import quiet_access_log

        app = http_app(server, spec)
        quiet_access_log()
        uvicorn.run(
            app,
            host=opts.host,
            port=opts.port,
            log_level=str(opts.log_level).lower(),
            loop=loop,
            http=opts.http_parser,
        )
        return

    from .stdio import pipes_available, serve_stdio

    if handover is not None or (
        opts.engine == "lean" and opts.stdio_transport != "sdk" and pipes_available()
    ):
        from ..lean.stdio import serve_stdio as serve_lean

        runtime = made if isinstance(made, ServerRuntime) else runtime_required(made)
        _run_asyncio(serve_lean(partial(_sdk, made), runtime, handover), use_uvloop)
        return

    import anyio

    async def _run(read: Any, write: Any) -> None:
        from .stdio_drain import drained

        server = _sdk(made)
        read, write = drained(read, write)  # end of input: what was read is answered first
        await server.run(read, write, server.create_initialization_options())

    async def _serve() -> None:
        if opts.stdio_transport == "sdk":
            from mcp.server.stdio import stdio_server

            async with stdio_server() as (read, write):
                await _run(read, write)
            return
        await serve_stdio(_run)

    anyio.run(_serve, backend_options={"use_uvloop": use_uvloop})


def _run_asyncio(main: Coroutine[Any, Any, None], use_uvloop: bool) -> None:
    """Run the lean engine (asyncio-native) on an asyncio loop, uvloop's when ``use_uvloop``,
    as ``anyio.run`` would, without importing anyio's asyncio backend: that import is about
    an eighth of a first call's instructions (the ``add`` server, callgrind). Handlers may still
    use anyio (cancel scopes, task groups, threads): anyio runs inside any asyncio loop."""
    if use_uvloop:
        import uvloop

        uvloop.run(main)
    else:
        import asyncio

        asyncio.run(main)
