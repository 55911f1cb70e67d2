"""Hypothesis over Authorization headers and token strings against a protected server: every
answer is 401 (or 400 for what HTTP itself refuses), never a 500; the server keeps serving."""

from __future__ import annotations

import base64
import json
import socket

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.auth.idp import IdentityProvider
from tests.auth.test_resource_server import post
from tests.interop.procs import HttpServer

_visible = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=300)
_segment = st.binary(max_size=120).map(lambda b: base64.urlsafe_b64encode(b).decode().rstrip("="))
_jwt_like = st.tuples(_segment, _segment, _segment).map(".".join)
_header_json = st.dictionaries(
    st.sampled_from(["alg", "kid", "typ", "jku", "x5u", "crit"]),
    st.one_of(st.text(max_size=20), st.integers(), st.none()),
).map(lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("="))
_crafted = st.tuples(_header_json, _segment, _segment).map(".".join)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    scheme=st.sampled_from(["Bearer", "bearer", "BEARER", "Basic", "Token", ""]),
    token=st.one_of(_visible, _jwt_like, _crafted),
)
def test_fuzzed_authorization_headers(vault: HttpServer, scheme: str, token: str) -> None:
    value = f"{scheme} {token}".strip() or "x"
    r = post(vault, "tools/list", authorization=value)
    assert r.status_code == 401, (value[:200], r.status_code, r.text[:200])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(min_size=1, max_size=400))
def test_raw_header_bytes(vault: HttpServer, idp: IdentityProvider, raw: bytes) -> None:
    """Bytes httpx would not send (controls, non-ASCII, trailing spaces), on a raw socket."""
    raw = raw.replace(b"\r", b"").replace(b"\n", b"")
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    port = int(vault.url.split(":")[2].split("/")[0])
    request = (
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Accept: application/json, text/event-stream\r\nAuthorization: Bearer "
        + raw
        + b"\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + body
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    assert status in (400, 401), answer[:300]


def test_still_serving_after_the_fuzz(vault: HttpServer, idp: IdentityProvider) -> None:
    good = idp.token(audience=vault.url, scopes="notes:read")
    assert post(vault, "tools/list", token=good).status_code == 200
    assert "Traceback" not in vault.output()
