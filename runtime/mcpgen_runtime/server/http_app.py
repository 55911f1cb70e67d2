"""The Streamable HTTP app of a generated server: the SDK's app (with static bearer tokens, or
inside mcpgen's OAuth front, ``auth.protect``), the lean engine's front before it on a server
without HTTP authentication (``lean.http``: 2026-07-28 POSTs and the handshake wire's session
POSTs), and the header trimming and opt-in Server
Card around them. ``cli`` builds it (and each ``--workers`` process)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .server_runtime import runtime_of, runtime_required

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

__all__ = ["http_app", "oauth_settings"]


def http_app(server: Server[Any], spec: dict[str, Any]) -> Any:
    from .httpfix import TrimHeaderValues

    app: Any = _sdk_app(server, spec)
    if (
        spec.get("engine") == "lean"
        and not spec.get("tokens")
        and oauth_settings(server, spec) is None
    ):
        app = _lean_front(server, spec, app)
    app = TrimHeaderValues(app)
    if spec.get("server_card"):  # SEP-2127 (draft): opt-in
        from .card_front import ServerCardFront

        app = ServerCardFront(app, server, spec)
    return app


def _lean_front(server: Server[Any], spec: dict[str, Any], app: Any) -> Any:
    """The lean engine before the SDK's app (``lean.http``): 2026-07-28 POSTs, and the
    handshake wire's session POSTs unless sessions are off (``--stateless``) or resumable (an
    event store, ``--resumable``); only on a server without HTTP authentication."""
    from mcp.server.transport_security import (
        DEFAULT_MAX_REQUEST_BODY_SIZE,
        TransportSecurityMiddleware,
    )

    from ..lean.http import LeanHttpFront
    from .build import declared_headers

    runtime = runtime_required(server)
    return LeanHttpFront(
        app,
        runtime,
        path=spec["path"],
        json_response=bool(spec["json_response"]),
        security=TransportSecurityMiddleware(server.session_manager.security_settings),
        max_body=int(spec.get("max_body_bytes") or DEFAULT_MAX_REQUEST_BODY_SIZE),
        header_checked=frozenset(declared_headers(runtime.tools.tools)),
        sessions=(None if spec["stateless"] or spec.get("resumable") else server.session_manager),
    )


def _sdk_app(server: Server[Any], spec: dict[str, Any]) -> Any:
    kwargs: dict[str, Any] = {}
    if spec.get("max_body_bytes"):
        kwargs["max_request_body_size"] = int(spec["max_body_bytes"])
    wrap: Any = None
    tokens = spec.get("tokens") or []
    if spec.get("resumable"):
        from .resume import ResumeFront

        backend = runtime_required(server).serving.backend
        store = kwargs["event_store"] = backend.event_store()
        kwargs["retry_interval"] = 1000

        def wrap(app: Any) -> Any:
            # inside the auth front (OAuth), so a replay on another replica is the caller's
            # own; static tokens are checked inside the SDK's app: no cross-replica replay
            return ResumeFront(app, store, backend, spec["path"], replay=not tokens)

    oauth = oauth_settings(server, spec)
    if oauth is not None:
        from .auth import protect

        return protect(
            server,
            oauth,
            wrap=wrap,
            path=spec["path"],
            http_options=dict(
                host=spec["host"],
                stateless_http=spec["stateless"],
                json_response=spec["json_response"],
                **kwargs,
            ),
        )
    if tokens:
        from mcp.server.auth.settings import AuthSettings

        from .auth.verify import StaticTokenVerifier

        base = f"http://{spec['host']}:{spec['port']}"
        kwargs["auth"] = AuthSettings(
            issuer_url=base,  # type: ignore[arg-type,unused-ignore]
            resource_server_url=base + spec["path"],  # type: ignore[arg-type,unused-ignore]
            validate_token_resource=False,
        )
        runtime = runtime_of(server)
        scopes = sorted(runtime.serving.scopes.declared) if runtime is not None else []
        kwargs["token_verifier"] = StaticTokenVerifier(tokens, scopes)
    app = server.streamable_http_app(
        host=spec["host"],
        streamable_http_path=spec["path"],
        stateless_http=spec["stateless"],
        json_response=spec["json_response"],
        **kwargs,
    )
    return wrap(app) if wrap is not None else app


def oauth_settings(server: Server[Any], spec: Mapping[str, Any]) -> Any:
    """The OAuth settings (manifest, environment, command line), or None."""
    from .auth.config import resolve

    runtime = runtime_of(server)
    manifest = runtime.auth_manifest if runtime is not None else None
    host = f"[{spec['host']}]" if ":" in spec["host"] else spec["host"]
    return resolve(
        manifest,
        spec.get("oauth"),
        default_resource=f"http://{host}:{spec['port']}{spec['path']}",
    )
