"""A hostile-shaped OpenAPI document, end to end: ``mcpgen import openapi`` (its warnings and
what it writes), ``mcpgen check`` (the HTTP rules), ``mcpgen server``, and calls through the
official MCP client to the generated server, which forwards them to a real HTTP app that
records each raw request (``raw_app``)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.openapi.raw_app import RawApp, raw_app
from tests.openapi.test_import import _mcpgen, _yaml

DOC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Users", "version": "1.0.0"},
    "servers": [{"url": "/v1"}],
    "security": [{"ApiKeyQuery": []}, {"Basic": []}],
    "components": {
        "securitySchemes": {
            "ApiKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"},
            "Basic": {"type": "http", "scheme": "basic"},
            "Session": {"type": "apiKey", "in": "cookie", "name": "session"},
        }
    },
    "paths": {
        "/users/{id}/profile": {
            "get": {
                "operationId": "get_profile",
                "summary": "A user's profile.",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "Host", "in": "header", "schema": {"type": "string"}},
                    {"name": "Authorization", "in": "header", "schema": {"type": "string"}},
                    {"name": "Transfer-Encoding", "in": "header", "schema": {"type": "string"}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                    {"name": "api_key", "in": "query", "schema": {"type": "string"}},
                    {
                        "name": "ids",
                        "in": "query",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "integer"}},
                    },
                    {
                        "name": "tags",
                        "in": "query",
                        "style": "pipeDelimited",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {
                        "name": "filter",
                        "in": "query",
                        "style": "deepObject",
                        "schema": {
                            "type": "object",
                            "properties": {"color": {"type": "string"}},
                        },
                    },
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/prefs": {
            "get": {
                "operationId": "get_prefs",
                "summary": "The caller's preferences.",
                "security": [{"Session": []}],
                "parameters": [
                    {"name": "pref", "in": "cookie", "schema": {"type": "string"}},
                    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}


@pytest.fixture(scope="module")
def app() -> Iterator[RawApp]:
    with raw_app() as running:
        yield running


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("fwd")
    spec = tmp / "users.json"
    spec.write_text(json.dumps(DOC, indent=1))
    out = tmp / "users.yaml"
    done = _mcpgen("import", "openapi", str(spec), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out, done.stderr


def test_the_import_leaves_out_what_an_argument_must_not_set(imported: tuple[Path, str]) -> None:
    out, stderr = imported
    tools = {t["name"]: t for t in _yaml(out)["tools"]}
    profile = tools["get_profile"]
    props = profile["inputSchema"]["properties"]
    assert set(props) == {"id", "X-Trace", "ids", "tags", "filter"}
    assert props["id"] == {"type": "string", "minLength": 1}
    binding = profile["x-mcpgen"]["http"]
    assert binding["parameters"]["ids"] == {"in": "query", "name": "ids", "explode": False}
    # explode is written only where it is not the style's default (true for form only)
    assert binding["parameters"]["tags"] == {
        "in": "query",
        "name": "tags",
        "style": "pipeDelimited",
    }
    assert binding["parameters"]["filter"] == {
        "in": "query",
        "name": "filter",
        "style": "deepObject",
    }
    assert binding["security"] == [["ApiKeyQuery"], ["Basic"]]
    prefs = tools["get_prefs"]
    assert list(prefs["inputSchema"]["properties"]) == ["pref"]
    assert prefs["x-mcpgen"]["http"]["security"] == ["Session"]
    assert _yaml(out)["server"]["http"]["basePath"] == "/v1"
    lines = [line for line in stderr.splitlines() if "warning" in line]
    spec = str(out.with_name("users.json"))
    for name in ("Host", "Authorization", "Transfer-Encoding"):
        assert any(f"header parameter {name!r} left out" in line for line in lines), lines
    assert any("'api_key' left out: security scheme 'ApiKeyQuery'" in line for line in lines)
    assert any("'session' left out: security scheme 'Session'" in line for line in lines)
    assert any(
        "relative server URL '/v1'" in line and "MCPGEN_HTTP_BASE_URL" in line for line in lines
    )
    assert all(line.startswith(spec + ":") for line in lines), lines  # located in the document


def test_check_accepts_the_import(imported: tuple[Path, str]) -> None:
    out, _ = imported
    done = _mcpgen("check", str(out))
    assert done.returncode == 0 and "no findings" in done.stderr, done.stdout + done.stderr


def test_check_flags_a_hand_written_binding(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(
        "server:\n"
        "  name: api\n"
        "  version: 1.0.0\n"
        "  http:\n"
        "    baseUrl: https://api.example.com\n"
        "    securitySchemes: {Key: {type: apiKey, in: query, name: key}}\n"
        "tools:\n"
        "  - name: get_pet\n"
        "    description: A pet.\n"
        "    inputSchema:\n"
        "      type: object\n"
        "      properties:\n"
        "        petId: {type: string}\n"
        "        host: {type: string}\n"
        "        key: {type: string}\n"
        "      required: [petId]\n"
        "    x-mcpgen:\n"
        "      http:\n"
        "        method: GET\n"
        "        path: /pets/{petId}\n"
        "        parameters:\n"
        "          petId: {in: path, name: petId, style: deepObject}\n"
        "          host: {in: header, name: Host}\n"
        "          key: {in: query, name: key}\n"
        "        security: [[Key], [Other]]\n"
    )
    done = _mcpgen("check", str(manifest), "--format", "json")
    diags = json.loads(done.stdout)["diagnostics"]
    found = {(d["rule_id"], d["line"]) for d in diags if d["rule_id"].startswith("HTTP_")}
    assert done.returncode == 1
    assert found == {
        ("HTTP_PATH_UNBOUNDED", 13),
        ("HTTP_STYLE", 22),
        ("HTTP_RESERVED_HEADER", 23),
        ("HTTP_CREDENTIAL_CLASH", 24),
        ("HTTP_SECURITY_UNDECLARED", 25),
    }, done.stdout


def _calls(pkg_dir: Path, environ: dict[str, str], todo: list[tuple[str, dict[str, Any]]]) -> Any:
    from mcp import Client, StdioServerParameters

    async def go() -> list[tuple[bool, str]]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "users_fwd"], cwd=str(pkg_dir), env=environ
        )
        results = []
        async with Client(params, mode="legacy") as client:
            for name, arguments in todo:
                res = await client.call_tool(name, arguments)
                text = " ".join(getattr(b, "text", "") for b in res.content)
                results.append((bool(res.is_error), text))
        return results

    return anyio.run(go)


def test_the_generated_server_forwards_what_it_should(
    imported: tuple[Path, str], app: RawApp
) -> None:
    out, _ = imported
    made = _mcpgen("server", str(out), "--out", str(out.parent), "--package", "users_fwd")
    assert made.returncode == 0, made.stderr
    base = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_HTTP")}
    environ = {
        **base,
        "MCPGEN_HTTP_BASE_URL": app.url,
        "MCPGEN_HTTP_AUTH_BASIC": "user:pw",
        "MCPGEN_HTTP_AUTH_SESSION": "REALCOOKIE",
    }
    app.seen.clear()
    results = _calls(
        out.parent,
        environ,
        [
            ("get_profile", {"id": ".."}),
            ("get_profile", {"id": ""}),
            ("get_profile", {"id": "a/b"}),
            ("get_profile", {"id": "ok", "X-Trace": "a\r\nX-Injected: 1"}),
            (
                "get_profile",
                {"id": "me", "ids": [1, 2], "tags": ["a", "b"], "filter": {"color": "red"}},
            ),
            ("get_prefs", {"pref": "x; session=attacker"}),
        ],
    )
    dots, empty, slash, crlf, ok, prefs = results
    assert dots[0] and "'id'" in dots[1] and "path" in dots[1]
    # the schema's minLength refuses "" before the handler runs
    assert empty[0] and "id" in empty[1]
    assert slash[0] and "'id'" in slash[1]
    assert crlf[0] and "'X-Trace'" in crlf[1] and "header" in crlf[1]
    assert not ok[0] and not prefs[0], (ok, prefs)
    assert len(app.seen) == 2, [s.target for s in app.seen]  # the refused calls sent nothing
    profile, cookies = app.seen
    # only Basic is configured: that alternative alone is sent
    assert profile.target == "/v1/users/me/profile?ids=1,2&tags=a%7Cb&filter[color]=red"
    assert profile.header("authorization") == ["Basic dXNlcjpwdw=="]
    assert cookies.target == "/v1/prefs"
    assert cookies.header("cookie") == ["pref=x%3B%20session%3Dattacker; session=REALCOOKIE"]


def test_server_urls_relative_or_with_variables() -> None:
    from mcpgen.commands.importer import _http

    def http(servers: Any, spec: str) -> tuple[dict[str, Any], list[str]]:
        out, notes = _http({"servers": servers}, spec)
        return out, [message for _pointer, message in notes]

    out, notes = http([{"url": "/api/"}], "https://example.com/docs/openapi.json")
    assert out == {"baseUrl": "https://example.com/api"}
    assert notes == [
        "relative server URL '/api/' resolved against the document's URL: https://example.com/api/"
    ]
    out, notes = http([{"url": "api"}], "openapi.json")
    assert out == {"basePath": "/api"} and "MCPGEN_HTTP_BASE_URL" in notes[0]
    variables = {"region": {"default": "eu"}, "v": {"default": "2"}}
    out, notes = http([{"url": "https://{region}.example.com/v{v}", "variables": variables}], "x")
    assert out == {"baseUrl": "https://eu.example.com/v2"} and "defaults" in notes[0]
    out, notes = http([{"url": "https://{region}.example.com"}], "x")
    assert out == {} and "without defaults" in notes[0]
    assert http([{"url": "https://a.example.com/"}], "x") == (
        {"baseUrl": "https://a.example.com"},
        [],
    )


def test_schemes_mcpgen_cannot_forward_leave_their_alternatives(tmp_path: Path) -> None:
    """OAuth 2 is a bearer token the operator supplies; an alternative that needs mutual TLS
    is dropped (once, with a warning at the scheme), and the rest stay alternatives."""
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "components": {
            "securitySchemes": {
                "OAuth": {"type": "oauth2", "flows": {}},
                "Mtls": {"type": "mutualTLS"},
                "Digest": {"type": "http", "scheme": "digest"},
            }
        },
        "paths": {
            "/a": {
                "get": {
                    "summary": "A.",
                    "security": [{"Mtls": []}, {"OAuth": ["read"]}],
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/b": {
                "get": {
                    "summary": "B.",
                    "security": [{"Mtls": [], "Digest": []}],
                    "responses": {"200": {"description": "ok"}},
                }
            },
        },
    }
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(doc, indent=1))
    out = tmp_path / "api.yaml"
    done = _mcpgen("import", "openapi", str(spec), "-o", str(out))
    assert done.returncode == 0, done.stderr
    manifest = _yaml(out)
    assert manifest["server"]["http"]["securitySchemes"] == {
        "OAuth": {"type": "http", "scheme": "bearer"}
    }
    a, b = manifest["tools"]
    assert a["x-mcpgen"]["http"]["security"] == ["OAuth"]
    assert "security" not in b["x-mcpgen"]["http"]
    warned = [line for line in done.stderr.splitlines() if "cannot be forwarded" in line]
    assert len(warned) == 2 and {"'Digest'", "'Mtls'"} == {w.split()[4] for w in warned}, warned
    checked = _mcpgen("check", str(out))
    assert checked.returncode == 0, checked.stdout
