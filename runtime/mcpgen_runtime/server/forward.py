"""Tools that call an HTTP API: a tool with an ``x-mcpgen.http`` binding (``mcpgen import
openapi`` writes them) whose method ``handlers.py`` does not define forwards each call.

* The request: the binding's method and path (path arguments percent-encoded), query, header
  and cookie arguments where the binding puts them, the ``body`` argument as JSON, sent with
  httpx2 (the SDK's HTTP client) to ``server.http.baseUrl`` or ``$MCPGEN_HTTP_BASE_URL``.
* Credentials come from the environment only: ``$MCPGEN_HTTP_AUTH_<SCHEME>`` for each security
  scheme the operation uses (a bearer token, ``user:password`` for basic, or an API key placed
  as the scheme says). A scheme without its variable is a clear tool error, never a call
  without credentials.
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
from urllib.parse import quote

from pydantic import BaseModel

from .context import ToolContext

__all__ = ["BASE_URL_ENV", "Forwarder", "auth_env", "inherited"]

BASE_URL_ENV = "MCPGEN_HTTP_BASE_URL"
_EXCERPT = 2000
_PATH_ARG = re.compile(r"\{([^{}]+)\}")


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
    """One HTTP client per server (connections kept between calls)."""

    def __init__(self, api: Mapping[str, Any]) -> None:
        self.api = api
        self.base_url = (os.environ.get(BASE_URL_ENV) or str(api.get("baseUrl") or "")).rstrip("/")
        timeout = api.get("timeoutSeconds")
        self.timeout = float(timeout) if isinstance(timeout, (int, float)) else 30.0
        self.schemes: Mapping[str, Any] = api.get("securitySchemes") or {}
        self._client: Any = None

    def invoke_for(self, definition: Mapping[str, Any]) -> Any:
        """The ``Invoke`` of one bound tool."""
        binding: Mapping[str, Any] = definition["x-mcpgen"]["http"]
        has_output = isinstance(definition.get("outputSchema"), Mapping)

        async def invoke(args: BaseModel, ctx: ToolContext) -> Any:
            arguments = args.model_dump(mode="json", by_alias=True, exclude_unset=True)
            return await self.call(binding, arguments, has_output)

        return invoke

    def _http(self) -> Any:
        if self._client is None:
            import httpx2

            self._client = httpx2.AsyncClient(timeout=self.timeout, follow_redirects=False)
        return self._client

    async def call(
        self, binding: Mapping[str, Any], arguments: Mapping[str, Any], has_output: bool
    ) -> Any:
        from .outcome import ToolError, ToolResult

        if not self.base_url:
            raise ToolError(
                f"this tool calls an HTTP API, but no base URL is configured: set ${BASE_URL_ENV}"
            )
        places: Mapping[str, Any] = binding.get("parameters") or {}
        path_values: dict[str, str] = {}
        query: list[tuple[str, str]] = []
        headers: dict[str, str] = {}
        cookies: dict[str, str] = {}
        for prop, value in arguments.items():
            place = places.get(prop)
            if not isinstance(place, Mapping) or value is None:
                continue
            where, name = place.get("in"), str(place.get("name"))
            values = value if isinstance(value, list) else [value]
            texts = [v if isinstance(v, str) else json.dumps(v) for v in values]
            if where == "path":
                path_values[name] = quote(texts[0], safe="")
            elif where == "query":
                query.extend((name, t) for t in texts)
            elif where == "header":
                headers[name] = ",".join(texts)
            elif where == "cookie":
                cookies[name] = texts[0]
        path = _PATH_ARG.sub(
            lambda m: path_values.get(m.group(1), m.group(0)), str(binding["path"])
        )
        if _PATH_ARG.search(path):
            raise ToolError(f"missing path argument for {binding['path']}")
        for scheme in binding.get("security") or ():
            self._credential(str(scheme), headers, query, cookies)
        body = binding.get("body")
        content = arguments.get(body) if isinstance(body, str) else None
        try:
            resp = await self._http().request(
                str(binding["method"]),
                self.base_url + path,
                params=query or None,
                headers=headers or None,
                cookies=cookies or None,
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

    def _credential(
        self,
        scheme: str,
        headers: dict[str, str],
        query: list[tuple[str, str]],
        cookies: dict[str, str],
    ) -> None:
        from .outcome import ToolError

        spec = self.schemes.get(scheme)
        if not isinstance(spec, Mapping):
            raise ToolError(f"security scheme {scheme!r} is not in server.http.securitySchemes")
        secret = os.environ.get(auth_env(scheme))
        if not secret:
            raise ToolError(
                f"this tool needs the credential of {scheme!r}: set ${auth_env(scheme)}"
            )
        if spec.get("type") == "http":
            if str(spec.get("scheme", "")).lower() == "basic":
                import base64

                token = base64.b64encode(secret.encode()).decode()
                headers["Authorization"] = f"Basic {token}"
            else:
                headers["Authorization"] = f"Bearer {secret}"
            return
        name, where = str(spec.get("name")), spec.get("in")
        if where == "header":
            headers[name] = secret
        elif where == "query":
            query.append((name, secret))
        else:
            cookies[name] = secret


def _text(text: str) -> Any:
    from ..content import TextContent

    return TextContent(type="text", text=text)
