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

Why not the SDK's ``mcp.server.request_state.RequestStateBoundary`` (in ``mcp`` since 2.0;
read at 2.3.0). It seals and verifies ``requestState`` as low-level ``Server`` middleware,
with AES-256-GCM (the client cannot read the state; mcpgen's is signed, not encrypted), a
key ring for rotation, an audience claim and a pluggable principal binding, and it refuses a
tampered state with ``-32602`` as the conformance suite requires. What mcpgen needs and it
does not do, each shown against the real class by tests/runtime/test_request_state_boundary.py:

* Every unusable state is the same ``-32602 "Invalid or expired requestState"`` raised
  before any handler runs, the reason in the server log only. mcpgen answers a genuine state
  used for another call, another caller, after its expiry or under a key this replica does
  not hold with a tool error that tells the model (and the operator) what to do; only a seal
  that does not verify is ``-32602``. The boundary has no hook to answer otherwise.
* Replicas configured apart: mcpgen's state carries its key id, so the refusal names the key
  each side holds and the setting every replica must share; the SDK's does not say.
* Rotation with a deadline: the SDK's ring opens a state of any key still in it for as long
  as the operator leaves it there; mcpgen opens a previous key's states only until one TTL
  after the rotation (the key file's mtime), even fresh ones from a replica not yet rotated.
* The default principal is (client id, issuer, subject). Static bearer tokens
  (``--auth-token``: client ``bearer``, no subject) are then all one caller, and a state
  issued to one token opens for another; mcpgen binds a digest of the token itself.
  (``bind_principal`` is pluggable: this one could be passed in; the points above remain.)
* It is one more ``async`` middleware around every request of every method (each extra
  coroutine per call shows in ``bench/bench_server.py --instructions``); mcpgen opens a
  state only on the call path of a retry that carries one.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping, Sequence
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
PREVIOUS_KEY_ENV = "MCPGEN_REQUEST_STATE_PREVIOUS_KEY"
"""The key before the last rotation: states it sealed still open for the grace period."""
KEY_FILE_ENV = "MCPGEN_REQUEST_STATE_KEY_FILE"
"""A file of keys instead (a mounted secret): the current key first, then previous ones."""


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


def parse_key(text: str, where: str = KEY_ENV) -> bytes:
    """A key from configuration: ``hex:...`` or any string of at least 32 bytes. ``where``
    names the source in errors (never the key)."""
    if text.startswith("hex:"):
        try:
            key = bytes.fromhex(text[4:])
        except ValueError:
            raise ValueError(f"{where}: 'hex:' must be followed by hex digits") from None
    else:
        key = text.encode()
    if len(key) < 32:
        raise ValueError(f"{where}: the requestState key needs at least 32 bytes")
    return key


def configured_keys(
    environ: Mapping[str, str] | None = None,
) -> tuple[bytes, tuple[bytes, ...], float] | None:
    """(current key, previous keys, when they were rotated) as the operator configured them:
    ``$MCPGEN_REQUEST_STATE_KEY_FILE`` (one key per line, the current one first, then the
    previous ones; ``#`` comments; rotated when the file was last written), else
    ``$MCPGEN_REQUEST_STATE_KEY`` and ``$MCPGEN_REQUEST_STATE_PREVIOUS_KEY`` (rotated when
    this process started). None: not configured. Raises ``ValueError`` in one line."""
    env = os.environ if environ is None else environ
    path = env.get(KEY_FILE_ENV)
    if path:
        try:
            with open(path, encoding="utf-8") as fh:
                text, rotated = fh.read(), os.fstat(fh.fileno()).st_mtime
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or "not UTF-8 text"
            raise ValueError(f"{KEY_FILE_ENV}: cannot read {path}: {why}") from None
        keys = [
            parse_key(line.strip(), f"{path}:{n}")
            for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")
        ]
        if not keys:
            raise ValueError(f"{KEY_FILE_ENV}: {path} holds no key")
        return keys[0], tuple(keys[1:]), rotated
    current = env.get(KEY_ENV)
    if not current:
        return None
    previous = env.get(PREVIOUS_KEY_ENV)
    old = (parse_key(previous, PREVIOUS_KEY_ENV),) if previous else ()
    return parse_key(current), old, time.time()


def _derive(key: bytes) -> bytes:
    if len(key) < 32:
        raise ValueError("the requestState key needs at least 32 bytes")
    return hashlib.sha256(b"mcpgen requestState v1\0" + key).digest()


def _key_id(derived: bytes) -> str:
    """A public fingerprint of a key (in each state, so a replica with another key can say so)."""
    return hashlib.sha256(b"mcpgen key id\0" + derived).hexdigest()[:12]


class RequestStateKey:
    """The HMAC key that seals ``requestState``: given, configured (``configured_keys``: the
    environment or a key file, with previous keys still accepted for a grace period after a
    rotation), or generated at start (then a state is only good in this process).

    The grace period: states sealed with a previous key open until ``ttl`` seconds after the
    rotation (every such state has expired by then), never later."""

    __slots__ = ("_key", "_previous", "ttl", "generated", "kid", "grace_until")

    def __init__(
        self,
        key: bytes | None = None,
        *,
        ttl: float = DEFAULT_STATE_TTL_S,
        previous: Sequence[bytes] = (),
        rotated_at: float | None = None,
    ) -> None:
        self.generated = False
        if key is None:
            conf = configured_keys()
            if conf is not None:
                key, previous, rotated_at = conf
            else:
                key, self.generated = os.urandom(32), True
        self._key = _derive(key)
        self._previous = tuple(_derive(k) for k in previous)
        self.kid = _key_id(self._key)
        if ttl <= 0:
            raise ValueError("the requestState ttl must be positive")
        self.ttl = ttl
        self.grace_until = (time.time() if rotated_at is None else rotated_at) + ttl

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()

    def derived(self, purpose: bytes) -> bytes:
        """A key for ``purpose`` derived from this one (one-way): the same on every replica
        that holds the same requestState key."""
        return self._mac(purpose)

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
            "k": self.kid,
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
            self._open_with_previous(payload, mac)
        doc = json.loads(payload)
        return self._check(doc, tool, args_digest, principal)

    def _open_with_previous(self, payload: bytes, mac: bytes) -> None:
        """Accept a state sealed with a previous key inside the grace period; otherwise say
        why it cannot be opened."""
        for old in self._previous:
            if hmac.compare_digest(mac, hmac.new(old, payload, hashlib.sha256).digest()):
                if time.time() > self.grace_until:
                    raise RequestStateError(
                        "requestState was sealed with a retired key (its grace period is "
                        "over); call the tool again without requestState",
                        integrity=False,
                    )
                return
        kid = _unverified_key_id(payload)
        known = {self.kid, *(_key_id(k) for k in self._previous)}
        if kid is not None and kid not in known:
            raise RequestStateError(
                f"requestState was sealed with a key this server does not hold (key id {kid}; "
                f"this server's is {self.kid}): every replica needs the same "
                f"{KEY_ENV} or {KEY_FILE_ENV}; call the tool again without requestState",
                integrity=False,
            )
        raise RequestStateError(
            "requestState failed its integrity check (tampered, truncated or issued by "
            "another server); retry the call without requestState and inputResponses",
            integrity=True,
        )

    def _check(
        self, doc: Any, tool: str, args_digest: str, principal: str
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The binding and expiry of a state whose seal verified."""
        if not isinstance(doc, dict):
            raise RequestStateError("requestState is not a sealed document", integrity=True)
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


def _unverified_key_id(payload: bytes) -> str | None:
    """The key id a state claims (unverified: only to word the refusal)."""
    try:
        kid = json.loads(payload).get("k")
    except (ValueError, AttributeError):
        return None
    return kid if isinstance(kid, str) and len(kid) == 12 and kid.isalnum() else None
