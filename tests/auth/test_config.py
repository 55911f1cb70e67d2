"""``auth.config.resolve``: the operator's command line over the environment over the
manifest's ``server.auth``, and settings that cannot work refused in one line."""

from __future__ import annotations

import pytest

from mcpgen_runtime.server.auth.config import ASYMMETRIC_ALGORITHMS, AuthConfigError, resolve

MANIFEST = {
    "issuer": "https://manifest.example.com",
    "resource": "https://mcp.example.com/mcp",
    "scopes": ["a", "b"],
    "requiredScopes": ["a"],
}


def test_no_authorization_server_means_no_oauth() -> None:
    assert resolve(None, None, environ={}) is None
    assert resolve({"scopes": ["a"]}, {"issuer": None}, environ={}) is None


def test_precedence_operator_over_environment_over_manifest() -> None:
    s = resolve(MANIFEST, None, environ={})
    assert s is not None and s.issuer == "https://manifest.example.com"
    assert s.audience == ("https://mcp.example.com/mcp",)  # the resource by default
    assert s.scopes == ("a", "b") and s.required_scopes == ("a",)
    assert s.algorithms == ASYMMETRIC_ALGORITHMS and s.leeway == 30.0
    env = {"MCPGEN_AUTH_ISSUER": "https://env.example.com", "MCPGEN_AUTH_AUDIENCE": "api://x"}
    s = resolve(MANIFEST, None, environ=env)
    assert s is not None and s.issuer == "https://env.example.com"
    assert s.audience == ("api://x",)
    s = resolve(MANIFEST, {"issuer": "https://cli.example.com"}, environ=env)
    assert s is not None and s.issuer == "https://cli.example.com"


def test_secrets_come_from_the_environment_only() -> None:
    env = {
        "MCPGEN_AUTH_INTROSPECTION_URL": "https://idp.example.com/introspect",
        "MCPGEN_AUTH_INTROSPECTION_CLIENT_ID": "rs",
        "MCPGEN_AUTH_INTROSPECTION_CLIENT_SECRET": "s3",
    }
    s = resolve({"resource": "https://mcp.example.com/mcp"}, None, environ=env)
    assert s is not None and (s.client_id, s.client_secret) == ("rs", "s3")
    assert s.introspection_url == "https://idp.example.com/introspect"
    assert "s3" not in repr(s)  # never in a log line or a traceback


def test_default_resource_on_loopback_only() -> None:
    s = resolve(
        {"issuer": "http://127.0.0.1:9000"},
        None,
        default_resource="http://127.0.0.1:8000/mcp",
        environ={},
    )
    assert s is not None and s.resource == "http://127.0.0.1:8000/mcp"
    with pytest.raises(AuthConfigError, match="must use https"):
        resolve(
            {"issuer": "https://idp.example.com"},
            None,
            default_resource="http://0.0.0.0:8000/mcp",
            environ={},
        )
    with pytest.raises(AuthConfigError, match="name this server's resource URI"):
        resolve({"issuer": "https://idp.example.com"}, None, environ={})


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ({**MANIFEST, "issuer": "http://idp.example.com"}, "must use https"),
        ({**MANIFEST, "issuer": "ftp://idp.example.com"}, r"not an http\(s\) URL"),
        ({**MANIFEST, "resource": "https://mcp.example.com/mcp#frag"}, "has a fragment"),
        ({**MANIFEST, "algorithms": ["HS256"]}, "HS256 not allowed"),
        ({**MANIFEST, "algorithms": ["none"]}, "none not allowed"),
        ({**MANIFEST, "leewaySeconds": 3600}, "leewaySeconds"),
        ({**MANIFEST, "scopes": "a b"}, None),  # a string is split like the env form
    ],
)
def test_bad_settings(manifest: dict[str, object], message: str | None) -> None:
    if message is None:
        s = resolve(manifest, None, environ={})
        assert s is not None and s.scopes == ("a", "b")
        return
    with pytest.raises(AuthConfigError, match=message):
        resolve(manifest, None, environ={})
