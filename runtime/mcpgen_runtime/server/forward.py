"""Tools that call an HTTP API: a tool with an ``x-mcpgen.http`` binding (``mcpgen import
openapi`` writes them) whose method ``handlers.py`` does not define forwards each call.

* The request: the binding's method and path, each argument where the binding puts it (path,
  query, header or cookie), serialized in its OpenAPI ``style``/``explode``, and the ``body``
  argument as JSON, sent with httpx2 (the SDK's HTTP client) to ``server.http.baseUrl`` or
  ``$MCPGEN_HTTP_BASE_URL`` (plus ``server.http.basePath``, a relative server URL). What an
  argument may not do is refused before anything is sent (``forward_params``): change the
  path's segments, set a reserved header, or smuggle CR/LF/NUL into a header or cookie.
* Credentials come from the environment only: ``$MCPGEN_HTTP_AUTH_<SCHEME>`` for each security
  scheme (a bearer token, ``user:password`` for basic, or an API key placed as the scheme
  says). ``security`` lists alternatives (``[[A], [B, C]]``: A, or B and C; ``[]``: none
  needed); the first whose variables are all set is used and only its credentials are sent. A
  list of names is one requirement (all of them). No alternative configured is a clear tool
  error, never a call without credentials. A credential always wins over an argument of the
  same name, and no cookie the API sets is kept for a later call.
* The answer: a 2xx JSON body is the structured content (``{result: ...}`` when wrapped), any
  other 2xx body is text; 4xx/5xx is ``isError`` with the status and at most 2,000 characters of
  the body; a network failure or timeout is a tool error that says so.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from pydantic import BaseModel

from .context import ToolContext
from .forward_params import (
    DEFAULT_STYLE,
    RESERVED_HEADERS,
    Refused,
    cookie_pairs,
    expand_path,
    header_value,
    path_part,
    query_pairs,
)

__all__ = ["BASE_URL_ENV", "Forwarder", "auth_env", "inherited", "requirements"]

BASE_URL_ENV = "MCPGEN_HTTP_BASE_URL"
_EXCERPT = 2000


def auth_env(scheme: str) -> str:
    """The environment variable holding the credential of security scheme ``scheme``."""
    return "MCPGEN_HTTP_AUTH_" + re.sub(r"[^A-Z0-9]", "_", scheme.upper())


def inherited(handlers: object, method: str) -> bool:
    """Whether ``method`` comes from the generated base class (``handlers.py`` did not
    define it)."""
    for cls in type(handlers).__mro__:
        if method in vars(cls):
            return cls.__module__.endswith("._generated.base")
    return False


class Forwarder:
    """One HTTP client per server (connections kept between calls, no cookies kept)."""

    def __init__(self, api: Mapping[str, Any]) -> None:
        self.api = api
        self.base_path = str(api.get("basePath") or "").rstrip("/")
        self.base_url = (os.environ.get(BASE_URL_ENV) or str(api.get("baseUrl") or "")).rstrip("/")
        if self.base_url and self.base_path:
            if not urlsplit(self.base_url).path.rstrip("/").endswith(self.base_path):
                self.base_url += self.base_path
        timeout = api.get("timeoutSeconds")
        self.timeout = float(timeout) if isinstance(timeout, (int, float)) else 30.0
        self.schemes: Mapping[str, Any] = api.get("securitySchemes") or {}
        self._client: Any = None

    def invoke_for(self, definition: Mapping[str, Any]) -> Any:
        """The ``Invoke`` of one bound tool."""
        binding: Mapping[str, Any] = definition["x-mcpgen"]["http"]
        has_output = isinstance(definition.get("outputSchema"), Mapping)

        async def invoke(args: BaseModel | dict[str, Any], ctx: ToolContext) -> Any:
            # the input model's JSON, or (``server.models: typeddict``) the JSON as validated
            arguments = (
                args
                if isinstance(args, dict)
                else args.model_dump(mode="json", by_alias=True, exclude_unset=True)
            )
            return await self.call(binding, arguments, has_output)

        return invoke

    def _http(self) -> Any:
        if self._client is None:
            from http.cookiejar import CookieJar, DefaultCookiePolicy

            import httpx2

            # an API's Set-Cookie must never reach the next call (another caller's)
            jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
            self._client = httpx2.AsyncClient(
                timeout=self.timeout, follow_redirects=False, cookies=jar
            )
        return self._client

    def request_parts(
        self, binding: Mapping[str, Any], arguments: Mapping[str, Any]
    ) -> tuple[str, list[tuple[str, str]]]:
        """The URL (path and encoded query) and headers of one call; ``Refused`` (naming the
        argument) for what an argument may not do, ``ToolError`` for missing set-up."""
        from .outcome import ToolError

        if not self.base_url:
            relative = f" (its server URL is relative: {self.base_path})" if self.base_path else ""
            raise ToolError(
                "this tool calls an HTTP API, but no base URL is configured: set "
                f"${BASE_URL_ENV}{relative}"
            )
        places: Mapping[str, Any] = binding.get("parameters") or {}
        path_parts: dict[str, str] = {}
        query: list[str] = []
        headers: list[tuple[str, str]] = []
        cookies: list[tuple[str, str]] = []
        for prop, value in arguments.items():
            place = places.get(prop)
            if not isinstance(place, Mapping) or value is None:
                continue
            where, name = place.get("in"), str(place.get("name"))
            if place.get("content") == "application/json":  # OpenAPI `content`: JSON text
                value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            style = str(place.get("style") or DEFAULT_STYLE.get(str(where), ""))
            explode = bool(place.get("explode", style == "form"))
            if where == "path":
                path_parts[name] = path_part(prop, name, value, style, explode)
            elif where == "query":
                query.extend(query_pairs(prop, name, value, style, explode))
            elif where == "header" and name.lower() not in RESERVED_HEADERS:
                headers.append((name, header_value(prop, value, explode)))
            elif where == "cookie":
                cookies.extend(cookie_pairs(prop, name, value, explode))
        path = expand_path(str(binding["path"]), path_parts)
        self._credentials(binding.get("security"), headers, query, cookies)
        if cookies:
            headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in cookies)))
        url = self.base_url + path + ("?" + "&".join(query) if query else "")
        return url, headers

    async def call(
        self, binding: Mapping[str, Any], arguments: Mapping[str, Any], has_output: bool
    ) -> Any:
        from .outcome import ToolError, ToolResult

        try:
            url, headers = self.request_parts(binding, arguments)
        except Refused as exc:
            raise ToolError(str(exc)) from None
        body = binding.get("body")
        content = arguments.get(body) if isinstance(body, str) else None
        try:
            resp = await self._http().request(
                str(binding["method"]),
                url,
                headers=headers or None,
                json=content if isinstance(body, str) and body in arguments else None,
            )
        except Exception as exc:  # noqa: BLE001 - refused, reset, timed out, bad URL: a tool error
            kind = type(exc).__name__
            raise ToolError(f"the API at {self.base_url} could not be reached ({kind})") from None
        text = resp.text
        if resp.status_code >= 400:
            excerpt = text[:_EXCERPT] + ("..." if len(text) > _EXCERPT else "")
            return ToolResult(
                content=[_text(f"HTTP {resp.status_code} {resp.reason_phrase}: {excerpt}".strip())],
                structured={"status": resp.status_code, "body": excerpt} if has_output else None,
                is_error=True,
            )
        ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype == "application/json" or ctype.endswith("+json"):
            try:
                data = resp.json()
            except ValueError:
                raise ToolError(
                    f"the API answered invalid JSON (HTTP {resp.status_code})"
                ) from None
            if has_output:
                structured = {"result": data} if binding.get("response") == "wrapped" else data
                return ToolResult(structured=structured)
            return ToolResult(content=[_text(text)])
        return ToolResult(content=[_text(text)] if text else [])

    def _credentials(
        self,
        security: Any,
        headers: list[tuple[str, str]],
        query: list[str],
        cookies: list[tuple[str, str]],
    ) -> None:
        """The credentials of the first configured alternative, each replacing any argument
        of the same name and place."""
        from .outcome import ToolError

        alternatives = requirements(security)
        if not alternatives:
            return
        for schemes in alternatives:
            for scheme in schemes:
                if not isinstance(self.schemes.get(scheme), Mapping):
                    raise ToolError(
                        f"security scheme {scheme!r} is not in server.http.securitySchemes"
                    )
        chosen = next(
            (alt for alt in alternatives if alt and all(os.environ.get(auth_env(s)) for s in alt)),
            None,
        )
        if chosen is None:
            if any(not alt for alt in alternatives):
                return  # the operation also allows no credentials
            wanted = " or ".join(
                " and ".join(f"${auth_env(s)}" for s in alt) for alt in alternatives
            )
            names = ", ".join(repr(s) for alt in alternatives for s in alt)
            raise ToolError(f"this tool needs the credential of {names}: set {wanted}")
        for scheme in chosen:
            self._credential(
                self.schemes[scheme], os.environ[auth_env(scheme)], headers, query, cookies
            )

    @staticmethod
    def _credential(
        spec: Mapping[str, Any],
        secret: str,
        headers: list[tuple[str, str]],
        query: list[str],
        cookies: list[tuple[str, str]],
    ) -> None:
        if spec.get("type") == "http":
            if str(spec.get("scheme", "")).lower() == "basic":
                import base64

                value = "Basic " + base64.b64encode(secret.encode()).decode()
            else:
                value = f"Bearer {secret}"
            name, where = "Authorization", "header"
        else:
            name, where, value = str(spec.get("name")), str(spec.get("in")), secret
        if where == "header":
            headers[:] = [(k, v) for k, v in headers if k.lower() != name.lower()]
            headers.append((name, value))
        elif where == "query":
            key = quote(name, safe="")
            query[:] = [p for p in query if unquote(p.split("=", 1)[0]) != name]
            query.append(f"{key}={quote(value, safe='')}")
        else:
            cookies[:] = [(k, v) for k, v in cookies if k != name]
            cookies.append((name, quote(value, safe="")))


def requirements(security: Any) -> list[list[str]]:
    """A binding's ``security`` as alternatives, each the schemes it needs together: a list of
    lists is alternatives; a list of names is one requirement (all of them)."""
    if not isinstance(security, list) or not security:
        return []
    if all(isinstance(s, str) for s in security):
        return [[str(s) for s in security]]
    return [[str(x) for x in alt] if isinstance(alt, list) else [str(alt)] for alt in security]


def _text(text: str) -> Any:
    from ..content import TextContent

    return TextContent(type="text", text=text)
