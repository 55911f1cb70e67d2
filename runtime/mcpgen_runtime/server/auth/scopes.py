"""Who is calling and what they may use: the verified caller (``Caller``), the scopes each
tool, resource, template and prompt needs (``ScopePolicy``), and the checks both the HTTP
front (a 403 step-up challenge before the SDK sees the request) and the runtime (lists that
show only what the caller may use, a refusal if the front was bypassed) make with them.

The caller comes from the SDK's auth middleware (``get_access_token``): with no token in the
context (stdio, HTTP without auth) nothing is filtered or refused; stdio is reachable only by
the process that started the server.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..value import Value

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken

T = TypeVar("T")

__all__ = [
    "Caller",
    "ScopePolicy",
    "current_caller",
    "current_scopes",
    "principal",
    "require",
]


class Caller(Value):
    """The verified caller of this request (``ctx.caller``): never the raw token, unless the
    operator turned on ``--auth-expose-token`` (for a token exchange). Immutable by use (a
    plain class: as a frozen dataclass it cost every server about 4M instructions at start)."""

    __slots__ = ("subject", "client_id", "scopes", "issuer", "claims", "token")
    _repr_hides = ("token",)

    def __init__(
        self,
        subject: str | None,
        client_id: str,
        scopes: frozenset[str],
        issuer: str | None = None,
        claims: Mapping[str, Any] | None = None,
        token: str | None = None,
    ) -> None:
        self.subject = subject
        """The token's ``sub`` (the resource owner; unique per issuer)."""
        self.client_id = client_id
        """The OAuth client that obtained the token (``client_id``/``azp``)."""
        self.scopes = scopes
        self.issuer = issuer
        self.claims: Mapping[str, Any] = {} if claims is None else claims
        """The token's verified claims (JWT) or the introspection response."""
        self.token = token
        """The raw access token: only with ``--auth-expose-token``, else None."""


_auth_var: Any = None
_AUTH_CONTEXT = "mcp.server.auth.middleware.auth_context"


def _user() -> Any:
    """The SDK's ``AuthenticatedUser`` of this request (``front.VerifiedUser`` behind the
    OAuth front), or None. The SDK is not imported for it: until an authenticating layer
    (the SDK's or ``front``'s) has loaded the SDK's context variable, nothing set one (stdio
    never does)."""
    global _auth_var
    if _auth_var is None:
        module = sys.modules.get(_AUTH_CONTEXT)
        if module is None:
            return None
        _auth_var = module.auth_context_var
    return _auth_var.get()


def _access_token() -> AccessToken | None:
    user = _user()
    token: AccessToken | None = user.access_token if user is not None else None
    return token


def current_scopes() -> frozenset[str] | None:
    """The scopes of this request's verified token; None when the request carries none."""
    token = _access_token()
    if token is None:
        return None
    return frozenset(token.scopes)


def current_caller() -> Caller | None:
    """This request's verified caller (None without a token), with the raw token when the
    OAuth front that verified it says so (the operator's ``--auth-expose-token``)."""
    user = _user()
    token: AccessToken | None = user.access_token if user is not None else None
    if token is None:
        return None
    expose_token = bool(getattr(user, "expose_token", False))
    claims = dict(token.claims or {})
    issuer = claims.get("iss")
    return Caller(
        subject=token.subject,
        client_id=token.client_id,
        scopes=frozenset(token.scopes),
        issuer=str(issuer) if issuer is not None else None,
        claims=claims,
        token=token.token if expose_token else None,
    )


def principal() -> str:
    """Who is calling, for binding ``requestState``: the token's (issuer, subject, client)
    when it names a subject, so a refreshed token keeps a multi-round call going; a digest
    of the token itself otherwise (static tokens); "" without auth."""
    token = _access_token()
    if token is None:
        return ""
    if token.subject:
        issuer = (token.claims or {}).get("iss")
        who = f"sub\0{issuer or ''}\0{token.subject}\0{token.client_id}"
    else:
        who = "token\0" + token.token
    import hashlib  # only for an authenticated caller: not at every server's start

    return hashlib.sha256(b"mcpgen principal\0" + who.encode()).hexdigest()[:32]


_NAMED = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "resources/subscribe": "uri",
}
"""The methods whose request names what it uses, and the param that names it."""


class ScopePolicy:
    """The scopes each item needs, by kind: ``tools`` and ``prompts`` by name, ``resources``
    by URI, ``templates`` by a URI matcher (checked in order)."""

    __slots__ = ("tools", "prompts", "resources", "templates", "declared", "via")

    def __init__(
        self,
        *,
        tools: Mapping[str, Sequence[str]] | None = None,
        prompts: Mapping[str, Sequence[str]] | None = None,
        resources: Mapping[str, Sequence[str]] | None = None,
        templates: Sequence[tuple[Callable[[str], bool], Sequence[str]]] = (),
    ) -> None:
        def clean(table: Mapping[str, Sequence[str]] | None) -> dict[str, tuple[str, ...]]:
            return {k: tuple(v) for k, v in (table or {}).items() if v}

        self.tools = clean(tools)
        self.prompts = clean(prompts)
        self.resources = clean(resources)
        self.templates = [(m, tuple(s)) for m, s in templates if s]
        self.declared: frozenset[str] = frozenset(
            s
            for group in (self.tools, self.prompts, self.resources)
            for scopes in group.values()
            for s in scopes
        ) | frozenset(s for _, scopes in self.templates for s in scopes)
        """Every scope some item needs."""
        self.via: str | None = None
        """The meta-tool whose calls name the tool they call in ``arguments.name``
        (``call_tool``, discovery mode search): ``target`` reads such a call as a call of
        that tool, so it needs that tool's scopes."""

    @property
    def any(self) -> bool:
        """Whether any item needs a scope (lists then differ per caller)."""
        return bool(self.declared)

    def target(self, method: str, params: Any) -> str | None:
        """What a request for ``method`` with JSON-RPC ``params`` names (a tool, a prompt, a
        resource URI): a ``call_tool`` call names the tool in its arguments."""
        if method not in _NAMED or not isinstance(params, dict):
            return None
        value = params.get(_NAMED[method])
        if method == "tools/call" and self.via is not None and value == self.via:
            arguments = params.get("arguments")
            value = arguments.get("name") if isinstance(arguments, dict) else None
        return value if isinstance(value, str) else None

    def needed(self, method: str, name: str | None) -> tuple[str, ...]:
        """The scopes a request for ``method`` on ``name`` needs (beyond ``required``)."""
        if name is None:
            return ()
        if method == "tools/call":
            return self.tools.get(name, ())
        if method == "prompts/get":
            return self.prompts.get(name, ())
        if method in ("resources/read", "resources/subscribe"):
            if name in self.resources:
                return self.resources[name]
            for matches, scopes in self.templates:
                if matches(name):
                    return scopes
        return ()

    def visible(self, items: Sequence[T], scopes_of: Callable[[T], Sequence[str]]) -> Sequence[T]:
        """The ``items`` of a list this request's caller may use (all of them when nothing
        needs a scope or the request carries no token)."""
        if not self.declared:
            return items
        held = current_scopes()
        if held is None:
            return items
        return [i for i in items if all(s in held for s in scopes_of(i))]


def require(needed: Sequence[str], what: str) -> None:
    """Refuse this request (JSON-RPC ``-32600``) when its token lacks a scope ``what``
    needs: the runtime's own check behind the HTTP front's 403."""
    if not needed:
        return
    token = _access_token()
    if token is None:
        return
    scopes = token.scopes
    for s in needed:
        if s not in scopes:
            break
    else:
        return
    held = frozenset(scopes)
    from ..errors import INVALID_REQUEST, RequestError

    missing = [s for s in needed if s not in held]
    raise RequestError(
        INVALID_REQUEST,
        f"Forbidden: {what} needs the scope(s) {' '.join(missing)}",
        {"error": "insufficient_scope", "scope": " ".join(needed)},
    )
