"""One ``tools/call`` round on the 2026-07-28 wire (multi round-trip, SEP-2322).

* ``open_inputs``: this round's answers: the verified ``requestState`` (``asking.RequestStateKey``)
  and the retry's ``inputResponses``, as ``CallInputs`` for the handler's ``ctx.elicit``.
* ``input_required``: the ``InputRequiredResult`` (the generated wire type) for a handler that
  stopped at a question, with the next sealed ``requestState``.

A state whose seal does not verify gets JSON-RPC ``-32602`` (what the official conformance
suite's ``input-required-result-tampered-state`` scenario requires); a genuine state that is
unusable here (another tool, other arguments, another caller, expired) gets a tool error.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .asking import Question, parse_answer, question_digest
from .auth.scopes import principal
from .errors import INVALID_PARAMS, RequestError
from .results import error_result
from .sealed import AnswerError, InputRequired, RequestStateError, RequestStateKey

__all__ = ["CallInputs", "args_digest", "input_required", "open_inputs"]


def args_digest(arguments: Any) -> str:
    text = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class CallInputs:
    """What one ``tools/call`` round knows about questions and answers (2026-07-28).

    ``sealed``: answers carried by a verified requestState, ``{key: {"q": digest, "r": raw}}``.
    ``fresh``: this retry's ``inputResponses`` (raw JSON by key).
    ``used``: answers the handler consumed in this run; sealed into the next requestState.
    """

    __slots__ = ("sealed", "fresh", "pending", "used", "counter")

    def __init__(
        self,
        sealed: Mapping[str, Any],
        fresh: Mapping[str, Any],
        pending: Mapping[str, str] | None,
    ) -> None:
        self.sealed = dict(sealed)
        self.fresh = dict(fresh)
        self.pending = None if pending is None else dict(pending)
        """Question digests the last round asked (None: no requestState, first round)."""
        self.used: dict[str, Any] = {}
        self.counter = 0

    def next_key(self, question: Question) -> str:
        self.counter += 1
        return question.key or f"{question.kind}-{self.counter}"

    def lookup(self, key: str, question: Question) -> tuple[bool, Any]:
        """(found, typed answer) for ``question`` asked under ``key``."""
        request = question.request()
        digest = question_digest(request)
        prior = self.sealed.get(key)
        if isinstance(prior, dict) and prior.get("q") == digest:
            self.used[key] = prior
            return True, parse_answer(question, prior.get("r"))
        if key in self.fresh and (self.pending is None or self.pending.get(key) == digest):
            raw = self.fresh[key]
            try:
                answer = parse_answer(question, raw)
            except AnswerError as exc:
                raise AnswerError(f"inputResponses[{key!r}]: {exc}") from None
            self.used[key] = {"q": digest, "r": raw}
            return True, answer
        return False, None


def open_inputs(
    key: RequestStateKey, tool: str, params: object, arguments: Any
) -> CallInputs | dict[str, Any]:
    """This round's answers (``params``: the request's raw params); or the tool error for a
    genuine but unusable state. A malformed or forged state raises ``RequestError`` -32602."""
    raw = params if isinstance(params, Mapping) else {}
    state = raw.get("requestState")
    responses = raw.get("inputResponses")
    if responses is not None and not isinstance(responses, Mapping):
        raise RequestError(INVALID_PARAMS, "inputResponses must be an object")
    sealed: dict[str, Any] = {}
    pending: dict[str, str] | None = None
    if state is not None:
        if not isinstance(state, str):
            raise RequestError(INVALID_PARAMS, "requestState must be a string")
        try:
            sealed, pending = key.open(state, tool, args_digest(arguments), principal())
        except RequestStateError as exc:
            if exc.integrity:
                raise RequestError(INVALID_PARAMS, exc.message) from None
            return error_result(exc.message)
    return CallInputs(sealed, responses or {}, pending)


def input_required(
    key: RequestStateKey, tool: str, arguments: Any, inputs: CallInputs, exc: InputRequired
) -> dict[str, Any]:
    """The ``InputRequiredResult`` asking ``exc.pending``, with the answers used so far sealed
    into its ``requestState``."""
    from mcp_wire.v2026_07_28 import InputRequiredResult

    state = key.seal(
        tool,
        args_digest(arguments),
        inputs.used,
        {k: question_digest(v) for k, v in exc.pending.items()},
        principal=principal(),
    )
    result = InputRequiredResult.model_validate(
        {"resultType": "input_required", "inputRequests": exc.pending, "requestState": state}
    )
    dumped: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped
