"""The sealed ``requestState`` of a 2026-07-28 round: its key, its errors, and the stop a
handler raises when answers are missing (``InputRequired``).

Kept apart from the questions (``asking``) so a server that never asks does not build them
at start: the call path needs only what is here.

``requestState`` is attacker-controlled input: it is an HMAC-SHA256-sealed document bound to
the tool name, a digest of the arguments, the questions asked, the caller (the token's issuer
and subject, or the static bearer token, when HTTP auth is on) and an expiry. A state whose
seal does not verify (tampered, truncated, forged, oversized) is rejected with JSON-RPC
``-32602``; a genuine state presented for another tool or other arguments, or after its
expiry, gets a tool error (``isError: true``) that says what to do.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping
from typing import Any

__all__ = [
    "AnswerError",
    "InputRequired",
    "RequestStateError",
    "RequestStateKey",
    "parse_key",
]

MAX_REQUEST_STATE_BYTES = 64 * 1024
"""A ``requestState`` longer than this is refused before it is decoded."""

DEFAULT_STATE_TTL_S = 600.0
KEY_ENV = "MCPGEN_REQUEST_STATE_KEY"
"""Environment variable holding the server's requestState key (any string of 32+ bytes, or
``hex:<64+ hex digits>``). Every worker / replica serving one endpoint needs the same key."""


class InputRequired(BaseException):
    """Raised inside a handler (2026-07-28) when answers are missing; the runtime turns it into
    an ``InputRequiredResult``. A ``BaseException`` (like ``asyncio.CancelledError``), so an
    ``except Exception`` in a handler does not swallow it."""

    def __init__(self, pending: dict[str, dict[str, Any]]) -> None:
        super().__init__(f"input required: {sorted(pending)}")
        self.pending = pending


class AnswerError(Exception):
    """An input response that does not answer its question (wrong type, bad form content)."""


class RequestStateError(Exception):
    """A ``requestState`` that cannot be used.

    ``integrity``: True when the seal did not verify (tampered, truncated, forged, too long);
    the runtime answers -32602. False for a genuine state used for another call or expired;
    the runtime answers a tool error.
    """

    def __init__(self, message: str, *, integrity: bool) -> None:
        super().__init__(message)
        self.message = message
        self.integrity = integrity


def _b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def parse_key(text: str) -> bytes:
    """A key from configuration: ``hex:...`` or any string of at least 32 bytes."""
    if text.startswith("hex:"):
        try:
            key = bytes.fromhex(text[4:])
        except ValueError:
            raise ValueError(f"{KEY_ENV}: 'hex:' must be followed by hex digits") from None
    else:
        key = text.encode()
    if len(key) < 32:
        raise ValueError(f"{KEY_ENV}: the requestState key needs at least 32 bytes")
    return key


class RequestStateKey:
    """The HMAC key that seals ``requestState``: given, from ``$MCPGEN_REQUEST_STATE_KEY``, or
    generated at start (then a state is only good in this process)."""

    __slots__ = ("_key", "ttl", "generated")

    def __init__(self, key: bytes | None = None, *, ttl: float = DEFAULT_STATE_TTL_S) -> None:
        self.generated = False
        if key is None:
            env = os.environ.get(KEY_ENV)
            if env:
                key = parse_key(env)
            else:
                key, self.generated = os.urandom(32), True
        if len(key) < 32:
            raise ValueError("the requestState key needs at least 32 bytes")
        self._key = hashlib.sha256(b"mcpgen requestState v1\0" + key).digest()
        if ttl <= 0:
            raise ValueError("the requestState ttl must be positive")
        self.ttl = ttl

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()

    def seal(
        self,
        tool: str,
        args_digest: str,
        answers: Mapping[str, Any],
        pending: Mapping[str, str],
        *,
        expires_at: float | None = None,
        principal: str = "",
    ) -> str:
        """A sealed state: the answers so far and the digests of the questions now asked."""
        doc = {
            "v": 1,
            "t": tool,
            "a": args_digest,
            "exp": int(time.time() + self.ttl if expires_at is None else expires_at),
            "n": _b64e(os.urandom(8)),
            "ans": answers,
            "p": pending,
            "u": principal,
        }
        payload = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
        return "m1." + _b64e(payload) + "." + _b64e(self._mac(payload))

    def open(
        self, state: str, tool: str, args_digest: str, principal: str = ""
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """(answers, pending question digests) sealed in ``state``, after checking seal,
        binding and expiry."""
        if len(state) > MAX_REQUEST_STATE_BYTES:
            raise RequestStateError(
                f"requestState is {len(state)} characters long; the limit is "
                f"{MAX_REQUEST_STATE_BYTES}",
                integrity=True,
            )
        parts = state.split(".")
        if len(parts) != 3 or parts[0] != "m1":
            raise RequestStateError(
                "requestState is not one this server issued (malformed); retry the call "
                "without requestState and inputResponses",
                integrity=True,
            )
        try:
            payload, mac = _b64d(parts[1]), _b64d(parts[2])
        except (binascii.Error, ValueError):
            raise RequestStateError(
                "requestState is not one this server issued (bad encoding)", integrity=True
            ) from None
        if not hmac.compare_digest(mac, self._mac(payload)):
            raise RequestStateError(
                "requestState failed its integrity check (tampered, truncated or issued by "
                "another server); retry the call without requestState and inputResponses",
                integrity=True,
            )
        doc = json.loads(payload)
        if doc.get("t") != tool or doc.get("a") != args_digest:
            raise RequestStateError(
                f"requestState was issued for a different call (another tool or other "
                f"arguments), not for this call of {tool!r}; call the tool again without "
                "requestState",
                integrity=False,
            )
        if doc.get("u", "") != principal:
            raise RequestStateError(
                "requestState was issued to another caller (another subject or token); call "
                "the tool again without requestState",
                integrity=False,
            )
        if not isinstance(doc.get("exp"), int) or doc["exp"] < time.time():
            raise RequestStateError(
                "requestState has expired; call the tool again without requestState to be "
                "asked again",
                integrity=False,
            )
        answers, pending = doc.get("ans"), doc.get("p")
        return (
            dict(answers) if isinstance(answers, dict) else {},
            dict(pending) if isinstance(pending, dict) else {},
        )
