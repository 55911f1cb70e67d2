"""Forwarded calls that a model cannot steer: the runtime's ``Forwarder`` against a real HTTP
app that records each raw request (``raw_app``). Every argument a hostile model might choose is
either refused (a tool error naming the argument, and nothing sent) or encoded; each test
asserts the exact request line, headers and cookies the app received."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import anyio
import pytest

from mcpgen_runtime.server.forward import Forwarder
from mcpgen_runtime.server.outcome import ToolError
from tests.openapi.raw_app import RawApp, raw_app

SCHEMES = {
    "ApiKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"},
    "Basic": {"type": "http", "scheme": "basic"},
    "Session": {"type": "apiKey", "in": "cookie", "name": "session"},
    "Token": {"type": "apiKey", "in": "header", "name": "X-Token"},
}


@pytest.fixture(scope="module")
def app() -> Iterator[RawApp]:
    with raw_app() as running:
        yield running


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for key in list(os.environ):
        if key.startswith("MCPGEN_HTTP"):
            monkeypatch.delenv(key)


def call(
    app: RawApp,
    binding: Mapping[str, Any],
    arguments: Mapping[str, Any],
    api: Mapping[str, Any] | None = None,
) -> Any:
    fwd = Forwarder({"baseUrl": app.url, "securitySchemes": SCHEMES, **(api or {})})
    before = len(app.seen)

    async def go() -> Any:
        try:
            return await fwd.call({"method": "GET", **binding}, arguments, False)
        finally:
            if fwd._client is not None:
                await fwd._client.aclose()

    anyio.run(go)
    assert len(app.seen) == before + 1
    return app.last()


def refused(app: RawApp, binding: Mapping[str, Any], arguments: Mapping[str, Any]) -> str:
    fwd = Forwarder({"baseUrl": app.url, "securitySchemes": SCHEMES})
    before = len(app.seen)
    with pytest.raises(ToolError) as err:
        anyio.run(fwd.call, {"method": "GET", **binding}, arguments, False)
    assert len(app.seen) == before, "a refused call must send nothing"
    return str(err.value)


PROFILE = {"path": "/v1/users/{id}/profile", "parameters": {"id": {"in": "path", "name": "id"}}}


@pytest.mark.parametrize(
    "value", ["..", ".", "", "a/b", "..%2F..%2Fadmin", "%2e%2e", "%252e%252E", "a\\b"]
)
def test_path_values_that_change_the_route_are_refused(app: RawApp, value: str) -> None:
    message = refused(app, PROFILE, {"id": value})
    assert "'id'" in message and "path" in message


def test_path_values_are_encoded(app: RawApp) -> None:
    assert call(app, PROFILE, {"id": "a b?#%"}).target == "/v1/users/a%20b%3F%23%25/profile"
    assert call(app, PROFILE, {"id": "...."}).target == "/v1/users/..../profile"
    assert call(app, PROFILE, {"id": 7}).target == "/v1/users/7/profile"


def test_an_empty_leading_segment_is_refused(app: RawApp) -> None:
    binding = {"path": "/{host}/x", "parameters": {"host": {"in": "path", "name": "host"}}}
    assert "'host'" in refused(app, binding, {"host": ""})
    pets = {"path": "/pets/{petId}", "parameters": {"petId": {"in": "path", "name": "petId"}}}
    assert "'petId'" in refused(app, pets, {"petId": ""})
    assert "'petId'" in refused(app, pets, {"petId": []})


def test_path_styles(app: RawApp) -> None:
    def path(style: str, explode: bool, value: Any) -> str:
        place = {"in": "path", "name": "id", "style": style, "explode": explode}
        return call(app, {"path": "/p/{id}", "parameters": {"id": place}}, {"id": value}).target

    assert path("simple", False, [3, 4, 5]) == "/p/3,4,5"
    assert path("simple", True, {"role": "admin", "first": "Alex"}) == "/p/role=admin,first=Alex"
    assert path("label", False, [3, 4, 5]) == "/p/.3,4,5"
    assert path("label", True, [3, 4, 5]) == "/p/.3.4.5"
    assert path("matrix", True, [3, 4, 5]) == "/p/;id=3;id=4;id=5"
    assert path("matrix", False, "x y") == "/p/;id=x%20y"


def test_query_styles(app: RawApp) -> None:
    def query(style: str, explode: bool, value: Any) -> str:
        place = {"in": "query", "name": "ids", "style": style, "explode": explode}
        return call(app, {"path": "/q", "parameters": {"ids": place}}, {"ids": value}).target

    assert query("form", True, [1, 2]) == "/q?ids=1&ids=2"
    assert query("form", False, [1, 2]) == "/q?ids=1,2"
    assert query("spaceDelimited", False, [1, 2]) == "/q?ids=1%202"
    assert query("pipeDelimited", False, [1, 2]) == "/q?ids=1%7C2"
    assert query("deepObject", True, {"color": "red", "size": "L"}) == (
        "/q?ids[color]=red&ids[size]=L"
    )
    assert query("form", True, {"color": "red", "size": "L"}) == "/q?color=red&size=L"
    assert query("form", False, {"color": "red"}) == "/q?ids=color,red"
    assert query("form", True, "a&b=c") == "/q?ids=a%26b%3Dc"
    assert query("form", True, True) == "/q?ids=true"
    assert query("form", True, []) == "/q"


def test_cookie_values_are_encoded_and_the_credential_wins(
    app: RawApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPGEN_HTTP_AUTH_SESSION", "REALCOOKIE")
    binding = {
        "path": "/c",
        "parameters": {
            "pref": {"in": "cookie", "name": "pref"},
            "session": {"in": "cookie", "name": "session"},
        },
        "security": [["Session"]],
    }
    seen = call(app, binding, {"pref": "x; session=attacker", "session": "attacker"})
    assert seen.header("cookie") == ["pref=x%3B%20session%3Dattacker; session=REALCOOKIE"]


def test_cookie_styles_and_names(app: RawApp) -> None:
    def cookie(value: Any, explode: bool) -> list[str]:
        place = {"in": "cookie", "name": "c", "explode": explode}
        return call(app, {"path": "/c", "parameters": {"c": place}}, {"c": value}).header("cookie")

    assert cookie([1, 2], False) == ["c=1,2"]
    assert cookie([1, 2], True) == ["c=1; c=2"]
    assert cookie({"a": "1", "b": "x y"}, True) == ["a=1; b=x%20y"]
    binding = {"path": "/c", "parameters": {"c": {"in": "cookie", "name": "c", "explode": True}}}
    assert "cookie name" in refused(app, binding, {"c": {"a=b; evil": "1"}})


@pytest.mark.parametrize(
    "name",
    [
        "Host",
        "Authorization",
        "Content-Type",
        "Transfer-Encoding",
        "Content-Length",
        "Accept",
        "Cookie",
        "Connection",
        "Proxy-Authorization",
        "Upgrade",
        "TE",
    ],
)
def test_reserved_headers_are_never_sent_from_arguments(app: RawApp, name: str) -> None:
    binding = {"path": "/h", "parameters": {"h": {"in": "header", "name": name}}}
    seen = call(app, binding, {"h": "evil"})
    assert "evil" not in repr(seen.headers)
    assert seen.method == "GET" and seen.target == "/h" and seen.body == b""
    assert seen.header("host") == [app.url.removeprefix("http://")]


@pytest.mark.parametrize("value", ["a\r\nX-Injected: 1", "a\nb", "a\x00b", "caf\u00e9", "\x7f"])
def test_header_and_cookie_values_with_control_or_non_ascii_are_tool_errors(
    app: RawApp, value: str
) -> None:
    header = {"path": "/h", "parameters": {"trace": {"in": "header", "name": "X-Trace"}}}
    message = refused(app, header, {"trace": value})
    assert "'trace'" in message and "header" in message
    cookie = {"path": "/h", "parameters": {"pref": {"in": "cookie", "name": "pref"}}}
    message = refused(app, cookie, {"pref": value})
    assert "'pref'" in message and "cookie" in message


def test_header_values_and_styles(app: RawApp) -> None:
    binding = {"path": "/h", "parameters": {"t": {"in": "header", "name": "X-Trace"}}}
    assert call(app, binding, {"t": "abc 1"}).header("x-trace") == ["abc 1"]
    assert call(app, binding, {"t": [1, 2]}).header("x-trace") == ["1,2"]
    exploded = {"path": "/h", "parameters": {"t": {"in": "header", "name": "X-T", "explode": True}}}
    assert call(app, exploded, {"t": {"a": 1, "b": 2}}).header("x-t") == ["a=1,b=2"]


def test_a_query_credential_wins_over_a_same_named_argument(
    app: RawApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPGEN_HTTP_AUTH_APIKEYQUERY", "REALQ")
    binding = {
        "path": "/q",
        "parameters": {
            "api_key": {"in": "query", "name": "api_key"},
            "n": {"in": "query", "name": "n"},
        },
        "security": [["ApiKeyQuery"]],
    }
    assert call(app, binding, {"api_key": "attacker", "n": 1}).target == "/q?n=1&api_key=REALQ"
    obj = {
        "path": "/q",
        "parameters": {"f": {"in": "query", "name": "f"}},
        "security": [["ApiKeyQuery"]],
    }
    sneaky = call(app, obj, {"f": {"api_key": "attacker"}})  # form, exploded: keys are names
    assert sneaky.target == "/q?api_key=REALQ"


def test_a_header_credential_wins(app: RawApp, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPGEN_HTTP_AUTH_TOKEN", "REALT")
    binding = {
        "path": "/h",
        "parameters": {"tok": {"in": "header", "name": "x-token"}},
        "security": [["Token"]],
    }
    assert call(app, binding, {"tok": "attacker"}).header("x-token") == ["REALT"]


def test_security_alternatives_send_only_the_one_used(
    app: RawApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    binding = {"path": "/s", "security": [["ApiKeyQuery"], ["Basic"]]}
    message = refused(app, binding, {})
    assert "$MCPGEN_HTTP_AUTH_APIKEYQUERY or $MCPGEN_HTTP_AUTH_BASIC" in message
    monkeypatch.setenv("MCPGEN_HTTP_AUTH_BASIC", "user:pw")
    only_basic = call(app, binding, {})
    assert only_basic.target == "/s" and only_basic.header("authorization") == [
        "Basic dXNlcjpwdw=="
    ]
    monkeypatch.setenv("MCPGEN_HTTP_AUTH_APIKEYQUERY", "REALQ")
    both = call(app, binding, {})
    assert both.target == "/s?api_key=REALQ" and both.header("authorization") == []
    # a requirement of two schemes sends both; an empty alternative allows none
    assert call(app, {"path": "/s", "security": [["ApiKeyQuery", "Basic"]]}, {}).header(
        "authorization"
    ) == ["Basic dXNlcjpwdw=="]
    monkeypatch.delenv("MCPGEN_HTTP_AUTH_APIKEYQUERY")
    monkeypatch.delenv("MCPGEN_HTTP_AUTH_BASIC")
    anonymous = call(app, {"path": "/s", "security": [["ApiKeyQuery"], []]}, {})
    assert anonymous.target == "/s" and anonymous.header("authorization") == []


def test_no_cookie_from_the_api_reaches_the_next_call(app: RawApp) -> None:
    fwd = Forwarder({"baseUrl": app.url})

    async def twice() -> None:
        await fwd.call({"method": "GET", "path": "/one"}, {}, False)
        await fwd.call({"method": "GET", "path": "/two"}, {}, False)
        await fwd._client.aclose()

    anyio.run(twice)
    assert app.seen[-2].header("cookie") == [] and app.seen[-1].header("cookie") == []


def test_a_relative_server_url_joins_the_base_url(
    app: RawApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = {"basePath": "/api"}
    fwd = Forwarder({**api})
    with pytest.raises(
        ToolError, match=r"MCPGEN_HTTP_BASE_URL \(its server URL is relative: /api\)"
    ):
        anyio.run(fwd.call, {"method": "GET", "path": "/x"}, {}, False)
    monkeypatch.setenv("MCPGEN_HTTP_BASE_URL", app.url)
    assert call(app, {"path": "/x"}, {}, {"baseUrl": None, **api}).target == "/api/x"
    monkeypatch.setenv("MCPGEN_HTTP_BASE_URL", app.url + "/api/")
    assert call(app, {"path": "/x"}, {}, {"baseUrl": None, **api}).target == "/api/x"
