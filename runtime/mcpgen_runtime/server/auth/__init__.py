"""OAuth 2.1 resource-server support of generated servers (HTTP): settings (``config``), the
signing keys (``keys``), token verification (``verify``), scopes and the verified caller
(``scopes``) and the HTTP front (``front``). ``protect`` assembles them around the SDK's
Streamable HTTP app (with DPoP, ``dpop``, unless the operator turns it off), on the SDK's
``TokenVerifier`` interface, its authenticated-user and access-token context, its challenge
wording and its protected-resource metadata model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server.lowlevel import Server

    from ..serving import Serving
    from .config import OAuthSettings

__all__ = ["protect"]


def protect(
    server: Server[Any],
    settings: OAuthSettings,
    *,
    path: str,
    http_options: dict[str, Any],
    wrap: Callable[[Any], Any] | None = None,
) -> Any:
    """The ASGI app serving ``server`` at ``path`` as an OAuth resource server; ``wrap``: an
    ASGI layer to put between the auth front and the SDK's app."""
    from mcp.server.auth.routes import build_resource_metadata_url
    from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
    from pydantic import AnyHttpUrl

    from ..server_runtime import runtime_of
    from .front import AuthFront
    from .scopes import ScopePolicy
    from .verify import OAuthTokenVerifier

    verifier = OAuthTokenVerifier(settings)
    runtime = runtime_of(server)
    serving = runtime.serving if runtime is not None else None
    dpop = None
    if settings.dpop != "off":
        import os

        from ..state.memory import MemoryState
        from .dpop import DPoPCheck

        dpop = DPoPCheck(
            settings,
            endpoint=path,
            state=serving.backend if serving is not None else MemoryState(),
            nonce_key=settings.dpop_nonce_key or _nonce_key(serving) or os.urandom(32),
        )
    policy = serving.scopes if serving is not None else ScopePolicy()
    app = server.streamable_http_app(streamable_http_path=path, **http_options)
    if wrap is not None:
        app = wrap(app)
    return AuthFront(
        app,
        path=path,
        settings=settings,
        policy=policy,
        verifier=verifier,
        metadata_url=str(build_resource_metadata_url(AnyHttpUrl(settings.resource))),
        max_body=int(http_options.get("max_request_body_size") or DEFAULT_MAX_REQUEST_BODY_SIZE),
        dpop=dpop,
    )


def _nonce_key(serving: Serving | None) -> bytes | None:
    """A DPoP nonce key derived from the requestState key (one-way), when no
    ``$MCPGEN_AUTH_DPOP_NONCE_KEY`` is set: every replica and worker that shares that key (as
    they must, for multi-round calls) then verifies the others' nonces."""
    if serving is None:
        return None
    return serving.state_key.derived(b"mcpgen dpop nonce key\0")
