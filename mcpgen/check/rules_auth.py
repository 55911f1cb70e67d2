"""Rules for OAuth: the manifest's ``server.auth`` and the ``scopes`` of tools (in
``x-mcpgen``), resources, resource templates and prompts."""

from __future__ import annotations

from typing import Any

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, E, W, checker, rule

rule(
    "AUTH_SCOPE_UNKNOWN",
    LINT,
    E,
    "Every scope a tool, resource, template or prompt needs is one `server.auth.scopes` lists.",
    why="`server.auth.scopes` is what the protected-resource metadata tells clients to ask "
    "for; a scope outside it is usually a typo, and no client would know to request it, so "
    "the item could never be used.",
)
rule(
    "AUTH_SCOPE_UNUSED",
    LINT,
    W,
    "Every scope `server.auth.scopes` lists is needed by some item (or by `requiredScopes`).",
    why="A scope nothing needs grants nothing: clients ask users to consent to it for no "
    "effect, and it usually means an item lost its `scopes`.",
)
rule(
    "AUTH_SCOPES_WITHOUT_AUTH",
    LINT,
    W,
    "Items declare `scopes` only when the server has `server.auth` (or is given one at start-up).",
    why="Scopes are enforced only for OAuth callers; without `server.auth` in the manifest, "
    "every item is open unless the operator configures OAuth when starting the server.",
)
rule(
    "AUTH_INSECURE_URL",
    LINT,
    E,
    "The issuer, JWKS, resource and introspection URLs use https (plain http only on loopback).",
    why="Tokens and signing keys fetched over plain http can be read or replaced on the way; "
    "the MCP authorization spec requires https for authorization server endpoints. Servers "
    "refuse to start with such a URL.",
)


def _scoped(ctx: ManifestCtx) -> list[tuple[str, tuple[str, ...], str]]:
    """(pointer of the scopes list, scopes, what) of every item that declares scopes."""
    m = ctx.manifest
    out: list[tuple[str, tuple[str, ...], str]] = []
    for tool in m.tools:
        if tool.scopes:
            out.append((tool.pointer + "/x-mcpgen/scopes", tool.scopes, f"tool {tool.name!r}"))
    for kind, items in (
        ("resource", m.resources),
        ("template", m.templates),
        ("prompt", m.prompts),
    ):
        for item in items:
            if item.scopes:
                key = item.raw.get("uri") or item.raw.get("uriTemplate") or item.name
                out.append((item.pointer + "/scopes", item.scopes, f"{kind} {key!r}"))
    return out


@checker(
    "AUTH_SCOPE_UNKNOWN",
    "AUTH_SCOPE_UNUSED",
    "AUTH_SCOPES_WITHOUT_AUTH",
    "AUTH_INSECURE_URL",
    scope="manifest",
)
def check_auth(ctx: ManifestCtx) -> None:
    auth: Any = ctx.manifest.server.auth
    scoped = _scoped(ctx)
    if auth is None:
        for pointer, _, what in scoped[:1]:
            ctx.emit(
                "AUTH_SCOPES_WITHOUT_AUTH",
                pointer,
                f"{what} needs scopes, but the manifest has no server.auth: they are only "
                "enforced when the server runs with OAuth (--auth-issuer at start-up)",
            )
        return
    for key in ("issuer", "jwksUri", "resource"):
        _url(ctx, key, auth.get(key), f"/server/auth/{key}")
    intro = auth.get("introspection")
    if isinstance(intro, dict):
        _url(ctx, "introspection url", intro.get("url"), "/server/auth/introspection/url")
    declared = auth.get("scopes")
    if not isinstance(declared, list):
        return  # no list of supported scopes: nothing to compare with
    supported = [s for s in declared if isinstance(s, str)]
    used: set[str] = set()
    for pointer, scopes, what in scoped:
        for i, scope in enumerate(scopes):
            used.add(scope)
            if scope not in supported:
                ctx.emit(
                    "AUTH_SCOPE_UNKNOWN",
                    f"{pointer}/{i}",
                    f"{what} needs scope {scope!r}, which server.auth.scopes does not list "
                    f"({', '.join(supported) or 'empty'})",
                )
    required = auth.get("requiredScopes")
    if isinstance(required, list):
        used.update(s for s in required if isinstance(s, str))
    for i, scope in enumerate(supported):
        if scope not in used:
            ctx.emit(
                "AUTH_SCOPE_UNUSED",
                f"/server/auth/scopes/{i}",
                f"scope {scope!r} is listed but no tool, resource, template or prompt needs it",
            )


def _url(ctx: ManifestCtx, name: str, value: Any, pointer: str) -> None:
    # the runtime's auth config (ipaddress, urllib) is loaded only for manifests with server.auth
    from mcpgen_runtime.server.auth.config import is_loopback_url

    if isinstance(value, str) and value.startswith("http://") and not is_loopback_url(value):
        ctx.emit(
            "AUTH_INSECURE_URL",
            pointer,
            f"auth {name} {value!r} uses plain http outside loopback; use https",
        )
