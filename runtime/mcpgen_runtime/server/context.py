"""What handlers use: the request context (``ToolContext``); the result type and the error to
raise live one floor down (``outcome``) and are re-exported here."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..revisions import MODERN_REVISIONS, at_least
from .outcome import LOG_LEVELS, LOGGER, ContentBlock, ToolError, ToolResult

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from pydantic import BaseModel

    from mcp_wire.v2026_07_28 import CreateMessageResult, Root

    from .asking import Elicitation, Question
    from .auth.scopes import Caller
    from .rounds import CallInputs
    from .serving import Serving

M = TypeVar("M", bound="BaseModel")

__all__ = ["LOGGER", "LOG_LEVELS", "ContentBlock", "ToolContext", "ToolError", "ToolResult"]


class ToolContext:
    """What a handler knows about the request it serves.

    New capabilities (input requests, cancellation, ...) are added as new members; existing
    handlers keep working.
    """

    __slots__ = ("_request", "_tool_name", "_serving", "_inputs")

    def __init__(
        self,
        request: ServerRequestContext[Any, Any],
        tool_name: str,
        serving: Serving,
        inputs: CallInputs | None = None,
    ) -> None:
        self._request = request
        self._tool_name = tool_name
        self._serving = serving
        self._inputs = inputs

    def call_inputs(self) -> CallInputs:
        """This round's answers (2026-07-28). A first round without ``requestState`` or
        ``inputResponses`` gets an empty set when a handler first asks: calls that never ask
        do not build one."""
        inputs = self._inputs
        if inputs is None:
            from .rounds import CallInputs

            inputs = self._inputs = CallInputs({}, {}, None)
        return inputs

    @property
    def protocol_version(self) -> str:
        """The protocol revision this client negotiated (e.g. ``"2025-06-18"``)."""
        return self._request.protocol_version

    @property
    def request_id(self) -> str | int | None:
        """The JSON-RPC id of this ``tools/call`` request."""
        return self._request.request_id

    @property
    def tool_name(self) -> str:
        return self._tool_name

    @property
    def caller(self) -> Caller | None:
        """The verified caller (HTTP with OAuth or bearer tokens): subject, client id, scopes
        and claims; None on stdio and unauthenticated HTTP. ``caller.token`` (the raw token)
        is None unless the operator started the server with ``--auth-expose-token``."""
        from .auth.scopes import current_caller

        return current_caller()

    @property
    def logger(self) -> logging.Logger:
        """A server-side logger (stderr); never sent to the client."""
        return LOGGER.getChild("tools")

    @property
    def progress_token(self) -> str | int | None:
        """The client's progress token, if it asked for progress notifications."""
        meta = self._request.meta
        if meta is None:
            return None
        if not isinstance(meta, Mapping):
            return None
        # the SDK hands its validated ``_meta`` (python names: ``progress_token``); the lean
        # engine the client's own
        token = meta.get("progressToken") if "progressToken" in meta else meta.get("progress_token")
        return token if isinstance(token, (str, int)) and not isinstance(token, bool) else None

    @property
    def sdk_context(self) -> ServerRequestContext[Any, Any]:
        """The SDK's request context (escape hatch for features not wrapped here)."""
        return self._request

    async def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send ``notifications/progress`` (a no-op unless the client sent a progress token)."""
        if message is not None and not at_least(self.protocol_version, "2025-03-26"):
            message = None
        await self._request.session.report_progress(progress, total, message)

    async def log(self, level: str, data: Any) -> None:
        """Send a ``notifications/message`` log entry to the client.

        Handshake revisions: sent when ``level`` is at or above the level the client set with
        ``logging/setLevel`` (default: everything). 2026-07-28: sent only if this request
        opted in (the SDK enforces it).
        """
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown log level {level!r}; use one of {LOG_LEVELS}")
        if self.protocol_version not in MODERN_REVISIONS and LOG_LEVELS.index(
            level
        ) < LOG_LEVELS.index(self._serving.client_log_level):
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await self._request.session.send_log_message(
                level,  # type: ignore[arg-type]
                data,
                logger=self._tool_name,
                related_request_id=self._request.request_id,
            )

    async def close_sse_stream(self) -> None:
        """HTTP with ``--resumable``: end this request's SSE stream now; the client reconnects
        and resumes (SEP-1699). Anything sent later reaches it on the resumed stream. A no-op
        elsewhere."""
        close = self._request.close_sse_stream
        if close is not None:
            await close()

    # -- list_changed ----------------------------------------------------------------------

    async def set_tool_enabled(self, name: str | Sequence[str], enabled: bool) -> bool:
        """Enable or disable tools at run time (feature flags, scopes) for every client of
        this server (of every replica, with ``--state``); a change sends
        ``notifications/tools/list_changed`` (handshake revisions: on each connection;
        2026-07-28: on ``subscriptions/listen`` streams that asked for it). True when the set
        of listed tools changed."""
        names = [name] if isinstance(name, str) else list(name)
        return await self._serving.tool_switches.set_enabled(names, enabled)

    async def set_prompt_enabled(self, name: str | Sequence[str], enabled: bool) -> bool:
        """Enable or disable prompts at run time, as ``set_tool_enabled`` does for tools; a
        change sends ``notifications/prompts/list_changed``. True when the list changed."""
        prompts = self._serving.prompt_switches
        if prompts is None:
            raise ValueError("this server has no prompts")
        names = [name] if isinstance(name, str) else list(name)
        return await prompts.set_enabled(names, enabled)

    async def set_resource_enabled(self, uri: str | Sequence[str], enabled: bool) -> bool:
        """Enable or disable resources (by URI) at run time; a change sends
        ``notifications/resources/list_changed``. True when the list changed."""
        resources = self._serving.resource_switches
        if resources is None:
            raise ValueError("this server has no resources")
        uris = [uri] if isinstance(uri, str) else list(uri)
        return await resources.set_enabled(uris, enabled)

    async def resource_updated(self, uri: str) -> None:
        """Tell the clients subscribed to ``uri`` that it changed
        (``notifications/resources/updated``; 2026-07-28 listeners that asked for it too)."""
        await self._serving.resource_updated(uri)

    def tool_enabled(self, name: str) -> bool:
        return self._serving.tool_switches.enabled(name)

    # -- asking the user / the client's model (see ``asking``) ------------------------------

    def client_supports(self, kind: str) -> bool:
        """Whether the client declared the capability for ``kind``: ``"elicitation"``,
        ``"sampling"`` or ``"roots"`` (per request on 2026-07-28, per connection before)."""
        caps = self._request.session.client_capabilities
        if caps is None:
            return False
        return getattr(caps, kind, None) is not None

    async def elicit(
        self, model: type[M], message: str, *, key: str | None = None, before_task: bool = False
    ) -> Elicitation[M]:
        """Ask the user to fill in ``model`` (a flat pydantic model); the typed answer.

        2026-07-28: the handler is re-run from the start on the client's retry; everything
        before this line runs again (keep side effects after the last question). Inside a
        task (``mcpgen_runtime.tasks``) the question parks the task (``input_required``);
        ``before_task=True``, asked before the handler's first wait, asks it on the call
        itself instead, and the task starts once it is answered.
        """
        from .asking import Elicit

        (answer,) = await self.ask(Elicit(model, message, key), before_task=before_task)
        result: Elicitation[M] = answer
        return result

    async def sample(
        self,
        messages: str | Sequence[Mapping[str, Any]],
        *,
        max_tokens: int = 256,
        system_prompt: str | None = None,
        temperature: float | None = None,
        key: str | None = None,
    ) -> CreateMessageResult:
        """Ask the client's model for a completion (``sampling/createMessage``)."""
        from .asking import Sample

        (answer,) = await self.ask(Sample(messages, max_tokens, system_prompt, temperature, key))
        result: CreateMessageResult = answer
        return result

    async def list_roots(self, *, key: str | None = None) -> list[Root]:
        """The client's roots (``roots/list``)."""
        from .asking import ListRoots

        (answer,) = await self.ask(ListRoots(key))
        result: list[Root] = answer
        return result

    async def ask(self, *questions: Question, before_task: bool = False) -> list[Any]:
        """Ask several questions at once (one round trip on 2026-07-28); answers in order:
        ``Elicitation`` for ``Elicit``, ``CreateMessageResult`` for ``Sample``, a list of
        ``Root`` for ``ListRoots``."""
        from .sealed import InputRequired

        missing = [q.kind for q in questions if not self.client_supports(q.kind)]
        if self.protocol_version in MODERN_REVISIONS:
            if missing:
                from .errors import RequestError

                raise RequestError(
                    -32021,
                    f"Tool {self._tool_name!r} needs the client capabilities: "
                    + ", ".join(sorted(set(missing))),
                    {"requiredCapabilities": {k: {} for k in sorted(set(missing))}},
                )
            inputs = self.call_inputs()
            answers: list[Any] = []
            pending: dict[str, dict[str, Any]] = {}
            for q in questions:
                key = inputs.next_key(q)
                found, answer = inputs.lookup(key, q)
                if found:
                    answers.append(answer)
                else:
                    pending[key] = q.request()
            if pending:
                stop = InputRequired(pending)
                stop.before_task = before_task  # type: ignore[attr-defined]
                raise stop
            return answers
        if not self._request.session.can_send_request:
            kinds = ", ".join(q.kind for q in questions)
            raise ToolError(
                f"Tool {self._tool_name!r} needs to ask the client ({kinds}), "
                "but this connection cannot carry server-to-client requests (stateless HTTP or "
                "JSON responses on a handshake revision); connect with a session and SSE, or use "
                "the 2026-07-28 wire."
            )
        if missing:
            raise ToolError(
                f"Tool {self._tool_name!r} needs to ask the client ({', '.join(missing)}), "
                "but the client did not declare that capability; use a client that supports "
                + " and ".join(sorted(set(missing)))
                + "."
            )
        return [await self._ask_legacy(q) for q in questions]

    async def _ask_legacy(self, question: Question) -> Any:
        """One server-to-client request on a handshake connection, through the session: the
        SDK's (its message types come from ``mcp_types``, the same objects as ``mcp.types``),
        or the lean engine's, which needs no SDK metadata (and so never imports ``mcp``)."""
        import mcp_types as types

        from .asking import parse_answer

        request = question.request()
        pairs: dict[str, tuple[Any, Any]] = {
            "elicitation": (types.ElicitRequest, types.ElicitResult),
            "sampling": (types.CreateMessageRequest, types.CreateMessageResult),
            "roots": (types.ListRootsRequest, types.ListRootsResult),
        }
        req_cls, res_cls = pairs[question.kind]
        session = self._request.session
        extra: dict[str, Any] = {}
        if getattr(session, "lean_connection", None) is None:  # the SDK's session
            from mcp.shared.message import ServerMessageMetadata

            extra["metadata"] = ServerMessageMetadata(related_request_id=self._request.request_id)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = await session.send_request(req_cls.model_validate(request), res_cls, **extra)
        raw = res.model_dump(mode="json", by_alias=True, exclude_none=True)
        return parse_answer(question, raw)
