"""Why mcpgen seals ``requestState`` itself (``server/sealed.py``) and does not install the
SDK's ``mcp.server.request_state.RequestStateBoundary``: each test runs the same situation
through the real SDK class and through mcpgen's sealing and shows where they differ (and,
first, where they agree: a tampered state is JSON-RPC -32602 in both, which the conformance
suite's ``input-required-result-tampered-state`` scenario requires)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.context import ServerRequestContext
from mcp.server.request_state import (
    RequestStateBoundary,
    RequestStateSecurity,
    authenticated_principal,
)
from mcp.shared.exceptions import MCPError

from mcpgen_runtime.server.auth.scopes import principal
from mcpgen_runtime.server.errors import RequestError, error_fields
from mcpgen_runtime.server.rounds import CallInputs, args_digest, open_inputs
from mcpgen_runtime.server.sealed import RequestStateKey

TOOL = "book"
ARGS = {"city": "Oslo"}
KEY = b"k" * 32
OTHER_KEY = b"z" * 32
SDK_REFUSAL = "Invalid or expired requestState"


def _ctx(params: Mapping[str, Any]) -> ServerRequestContext[Any, Any]:
    """A 2026-07-28 tools/call as the SDK's middleware sees it (the boundary reads only the
    method and the raw params; the session is not touched)."""
    return ServerRequestContext(
        session=None,  # type: ignore[arg-type]
        lifespan_context=None,
        protocol_version="2026-07-28",
        method="tools/call",
        params=params,
        request_id=1,
    )


def _boundary(*keys: bytes, ttl: float = 600.0) -> RequestStateBoundary:
    return RequestStateBoundary(
        RequestStateSecurity(keys=list(keys), ttl=ttl), default_audience="weather"
    )


def _sdk_state(boundary: RequestStateBoundary, arguments: Mapping[str, Any]) -> str:
    """The sealed requestState of a first round through the SDK's boundary."""

    async def handler(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
        return {"resultType": "input_required", "inputRequests": {}, "requestState": "inner"}

    async def main() -> Any:
        return await boundary(_ctx({"name": TOOL, "arguments": dict(arguments)}), handler)

    result = anyio.run(main)
    state: str = result["requestState"]
    return state


def _sdk_retry(boundary: RequestStateBoundary, state: str, arguments: Mapping[str, Any]) -> Any:
    """What the SDK's boundary makes of a retry: the plaintext the handler sees, or the
    ``MCPError`` it raises before any handler runs."""

    async def handler(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
        assert ctx.params is not None
        return {"content": [], "seen": ctx.params["requestState"]}

    async def main() -> Any:
        params = {"name": TOOL, "arguments": dict(arguments), "requestState": state}
        try:
            return await boundary(_ctx(params), handler)
        except MCPError as exc:
            return exc

    return anyio.run(main)


def _mcpgen_retry(key: RequestStateKey, state: str, arguments: Mapping[str, Any]) -> Any:
    """What mcpgen makes of the same retry (``rounds.open_inputs``): ``CallInputs``, the
    tool error (``isError``) for a genuine but unusable state, or the ``RequestError`` raised
    (the runtime's protocol error, which each engine answers as the SDK's ``MCPError``)."""
    params = {"name": TOOL, "arguments": dict(arguments), "requestState": state}
    try:
        return open_inputs(key, TOOL, params, dict(arguments))
    except RequestError as exc:
        return exc


def _mcpgen_state(key: RequestStateKey, arguments: Mapping[str, Any], **kw: Any) -> str:
    return key.seal(TOOL, args_digest(dict(arguments)), {}, {}, principal=principal(), **kw)


def _refused(outcome: Any) -> bool:
    fields = error_fields(outcome) if isinstance(outcome, Exception) else None
    return fields is not None and fields[0] == types.INVALID_PARAMS


def _tool_error(outcome: Any) -> str:
    assert isinstance(outcome, dict) and outcome.get("isError") is True, outcome
    text: str = outcome["content"][0]["text"]
    return text


@contextmanager
def _caller(token: str) -> Iterator[None]:
    """A request authenticated with a static bearer token, as ``--auth-token`` verifies it
    (``auth.verify.StaticTokenVerifier``: client id ``bearer``, no subject)."""
    reset = auth_context_var.set(
        AuthenticatedUser(AccessToken(token=token, client_id="bearer", scopes=[]))
    )
    try:
        yield
    finally:
        auth_context_var.reset(reset)


def test_both_refuse_a_tampered_state_with_invalid_params() -> None:
    sdk = _boundary(KEY)
    state = _sdk_state(sdk, ARGS)
    tampered = state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB")
    assert _refused(_sdk_retry(sdk, tampered, ARGS))

    ours = RequestStateKey(KEY)
    state = _mcpgen_state(ours, ARGS)
    head, payload, mac = state.split(".")
    tampered = ".".join([head, payload[:-2] + ("AA" if not payload.endswith("AA") else "BB"), mac])
    assert _refused(_mcpgen_retry(ours, tampered, ARGS))


def test_a_genuine_state_for_other_arguments_is_a_tool_error_not_a_protocol_error() -> None:
    """The SDK answers every unusable state with one frozen -32602 (the reason goes to the
    server log only); mcpgen answers a genuine state used for another call with a tool error
    the model can act on (tests/runtime/test_asking.py asserts it end to end)."""
    sdk = _boundary(KEY)
    outcome = _sdk_retry(sdk, _sdk_state(sdk, ARGS), {"city": "Bergen"})
    assert _refused(outcome) and outcome.error.message == SDK_REFUSAL

    ours = RequestStateKey(KEY)
    text = _tool_error(_mcpgen_retry(ours, _mcpgen_state(ours, ARGS), {"city": "Bergen"}))
    assert "different call" in text and "without requestState" in text


def test_an_expired_state_is_a_tool_error_not_a_protocol_error() -> None:
    sdk = _boundary(KEY, ttl=0.05)
    state = _sdk_state(sdk, ARGS)
    time.sleep(0.1)
    outcome = _sdk_retry(sdk, state, ARGS)
    assert _refused(outcome) and outcome.error.message == SDK_REFUSAL

    ours = RequestStateKey(KEY)
    expired = _mcpgen_state(ours, ARGS, expires_at=time.time() - 5)
    assert "expired" in _tool_error(_mcpgen_retry(ours, expired, ARGS))


def test_a_replica_with_another_key_says_so() -> None:
    """Replicas configured apart: the SDK's refusal is the same frozen -32602 as a forgery;
    mcpgen's state names its key id, so the replica that cannot open it tells the operator
    which key it holds and which setting every replica must share."""
    outcome = _sdk_retry(_boundary(KEY), _sdk_state(_boundary(OTHER_KEY), ARGS), ARGS)
    assert _refused(outcome) and outcome.error.message == SDK_REFUSAL

    ours, theirs = RequestStateKey(KEY), RequestStateKey(OTHER_KEY)
    text = _tool_error(_mcpgen_retry(ours, _mcpgen_state(theirs, ARGS), ARGS))
    assert "does not hold" in text and theirs.kid in text and ours.kid in text
    assert "MCPGEN_REQUEST_STATE_KEY" in text


def test_a_retired_key_stops_opening_states_one_ttl_after_the_rotation() -> None:
    """Key rotation: the SDK's ring opens a state sealed with any key still in it, for as long
    as it stays there (the operator removes it by hand one TTL later); mcpgen opens a state
    of the previous key only until one TTL after the rotation (the key file's mtime), even a
    fresh one minted by a replica not yet rotated."""
    rotated_long_ago = time.time() - 3600
    sdk_after_rotation = _boundary(b"n" * 32, KEY)  # keys=[new, old]
    fresh_from_old_replica = _sdk_state(_boundary(KEY), ARGS)
    assert _sdk_retry(sdk_after_rotation, fresh_from_old_replica, ARGS)["seen"] == "inner"

    ours = RequestStateKey(b"n" * 32, previous=[KEY], ttl=600, rotated_at=rotated_long_ago)
    fresh = _mcpgen_state(RequestStateKey(KEY), ARGS)
    assert "retired key" in _tool_error(_mcpgen_retry(ours, fresh, ARGS))


def test_static_bearer_tokens_are_different_callers() -> None:
    """With ``--auth-token`` every static token is client ``bearer`` with no subject: the
    SDK's default principal (``authenticated_principal``: client, issuer, subject) is the same
    for all of them, so its boundary opens one token's state for another; mcpgen binds a
    digest of the token itself (``auth.scopes.principal``). (The SDK's ``bind_principal`` is
    pluggable; its default is what differs.)"""
    sdk = _boundary(KEY)
    with _caller("token-of-alice"):
        state = _sdk_state(sdk, ARGS)
        alice = authenticated_principal(_ctx({}))
    with _caller("token-of-bob"):
        assert authenticated_principal(_ctx({})) == alice
        assert _sdk_retry(sdk, state, ARGS)["seen"] == "inner"

    ours = RequestStateKey(KEY)
    with _caller("token-of-alice"):
        state = _mcpgen_state(ours, ARGS)
        assert isinstance(_mcpgen_retry(ours, state, ARGS), CallInputs)
    with _caller("token-of-bob"):
        assert "another caller" in _tool_error(_mcpgen_retry(ours, state, ARGS))


@pytest.mark.parametrize("version", ["2025-11-25", "2026-07-28"])
def test_the_boundary_is_the_sdks_own(version: str) -> None:
    """The class these tests hold mcpgen against is the installed SDK's, on the methods that
    carry requestState (the boundary does not look at the revision)."""
    from mcp_types.methods import INPUT_REQUIRED_METHODS

    assert RequestStateBoundary.__module__ == "mcp.server.request_state"
    assert {"tools/call", "prompts/get", "resources/read"} <= set(INPUT_REQUIRED_METHODS)
    ctx = _ctx({"name": TOOL, "arguments": ARGS, "requestState": "forged"})
    ctx.protocol_version = version
    sdk = _boundary(KEY)

    async def handler(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
        return {"content": []}

    async def main() -> None:
        with pytest.raises(MCPError):
            await sdk(ctx, handler)

    anyio.run(main)
