"""Asking the user (elicitation) or the client's model (sampling) from inside a handler.

One handler API on every revision::

    answer = await ctx.elicit(Confirm, "Delete 3 files?")
    if answer.action == "accept" and answer.data.ok: ...

* **2026-07-28** (multi round-trip, SEP-2322). The first ``ctx.elicit`` whose answer is not
  known yet stops the handler: the runtime answers the call with an ``InputRequiredResult``
  (the generated wire type) carrying the question under a key and a sealed ``requestState``.
  The client retries the same call with ``inputResponses``; the runtime runs the handler
  again **from the start**, and this time ``ctx.elicit`` returns the answer. Answers of
  earlier rounds travel inside the sealed ``requestState``, so a handler may ask several
  questions one after the other (one round each) or at once with ``ctx.ask(...)`` (one round).
* **Legacy revisions** (2025-06-18, 2025-11-25 and older): the same call sends the SDK's
  server-to-client request (``elicitation/create``, ``sampling/createMessage``, ``roots/list``)
  on the request's own stream and waits for the answer; the handler runs once.
* A client that did not declare the capability is never asked: the call fails with a clear
  tool error (legacy) or ``-32021`` ``MissingRequiredClientCapability`` (2026-07-28).

**The side-effect rule.** On 2026-07-28 everything a handler does before its last question
runs once per round. Put side effects (writes, payments, messages) after the last
``await ctx.elicit(...)``/``ctx.sample(...)``, or make them idempotent; read-only work before
a question is fine.

``requestState`` (the sealed answers of earlier rounds) and the stop a handler raises when
answers are missing live in ``sealed``: the call path needs them, not the questions.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from .sealed import AnswerError

__all__ = [
    "Elicit",
    "Elicitation",
    "ListRoots",
    "Question",
    "Sample",
    "parse_answer",
]

M = TypeVar("M", bound=BaseModel)


# ----------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Elicit(Generic[M]):
    """Ask the user to fill a form whose fields are ``model``'s (flat, primitive fields)."""

    model: type[M]
    message: str
    key: str | None = None

    kind: Literal["elicitation"] = field(default="elicitation", init=False)

    def request(self) -> dict[str, Any]:
        schema = self.model.model_json_schema()
        schema.pop("title", None)
        schema.pop("description", None)
        return {
            "method": "elicitation/create",
            "params": {"message": self.message, "requestedSchema": schema},
        }


@dataclass(frozen=True)
class Sample:
    """Ask the client's model for a completion (``sampling/createMessage``).

    ``messages``: a prompt string (one user message) or wire ``SamplingMessage`` JSON objects.
    """

    messages: str | Sequence[Mapping[str, Any]]
    max_tokens: int = 256
    system_prompt: str | None = None
    temperature: float | None = None
    key: str | None = None

    kind: Literal["sampling"] = field(default="sampling", init=False)

    def request(self) -> dict[str, Any]:
        if isinstance(self.messages, str):
            msgs: list[Any] = [{"role": "user", "content": {"type": "text", "text": self.messages}}]
        else:
            msgs = [dict(m) for m in self.messages]
        params: dict[str, Any] = {"messages": msgs, "maxTokens": self.max_tokens}
        if self.system_prompt is not None:
            params["systemPrompt"] = self.system_prompt
        if self.temperature is not None:
            params["temperature"] = self.temperature
        return {"method": "sampling/createMessage", "params": params}


@dataclass(frozen=True)
class ListRoots:
    """Ask the client for its roots (``roots/list``)."""

    key: str | None = None

    kind: Literal["roots"] = field(default="roots", init=False)

    def request(self) -> dict[str, Any]:
        return {"method": "roots/list"}


Question = Elicit[Any] | Sample | ListRoots

CAPABILITY = {"elicitation": "elicitation", "sampling": "sampling", "roots": "roots"}


@dataclass(frozen=True)
class Elicitation(Generic[M]):
    """The user's answer to ``ctx.elicit``: ``accept`` (``data`` is the typed form),
    ``decline`` or ``cancel`` (``data`` is ``None``)."""

    action: Literal["accept", "decline", "cancel"]
    data: M | None = None

    @property
    def accepted(self) -> bool:
        return self.action == "accept" and self.data is not None


def question_digest(request: Mapping[str, Any]) -> str:
    text = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def parse_answer(question: Question, raw: Any) -> Any:
    """The typed answer to ``question`` from the client's raw JSON response."""
    from mcp_wire.v2026_07_28 import CreateMessageResult, ElicitResult, ListRootsResult

    try:
        if isinstance(question, Elicit):
            res = ElicitResult.model_validate(raw)
            if res.action != "accept":
                return Elicitation(action=res.action, data=None)
            try:
                data = question.model.model_validate(res.content or {})
            except ValidationError as exc:
                msgs = "; ".join(
                    f"{'/'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                    for e in exc.errors(include_url=False, include_input=False)
                )
                raise AnswerError(f"the form content does not match the question: {msgs}") from None
            return Elicitation(action="accept", data=data)
        if isinstance(question, Sample):
            return CreateMessageResult.model_validate(raw)
        return list(ListRootsResult.model_validate(raw).roots)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = "/".join(str(p) for p in first["loc"]) or "(root)"
        raise AnswerError(
            f"the response is not a valid {question.kind} result ({where}: {first['msg']})"
        ) from None
