"""The methods the lean engine serves itself (``engine``), each a handler on the runtimes of
``mcpgen_runtime.server``: the lists, ``tools/call``, ``resources/read`` and the subscriptions,
``prompts/get``, ``completion/complete``, ``ping``, ``logging/setLevel`` and
``server/discover``; one table per wire (``Methods.tables``). Parameters reach a handler
already checked (by the engine, with ``checks``); the methods off the hot path hand the
runtimes the SDK's typed params (``checks.typed``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .checks import paginated, plain, typed
from .context import LeanRequest

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime

__all__ = ["Handler", "Methods"]


Handler = Callable[[LeanRequest, dict[str, Any]], Awaitable[dict[str, Any]]]


class Methods:
    """The handlers on ``runtime``; ``answers``: the discovery answers (``server/discover``
    is one of them)."""

    __slots__ = ("runtime", "_answers")

    def __init__(self, runtime: ServerRuntime, answers: dict[str, Any]) -> None:
        self.runtime = runtime
        self._answers = answers

    def tables(self) -> tuple[dict[str, Handler], dict[str, Handler]]:
        """(handshake wire, 2026-07-28 wire): method -> handler, for the kinds ``runtime``
        serves."""
        rt = self.runtime
        common: dict[str, Handler] = {
            "tools/list": self._tools_list,
            "tools/call": self._tools_call,
        }
        if rt.resources is not None:
            common["resources/list"] = self._resources_list
            common["resources/templates/list"] = self._templates_list
            common["resources/read"] = self._resources_read
        if rt.prompts is not None:
            common["prompts/list"] = self._prompts_list
            common["prompts/get"] = self._prompts_get
        if rt.completions is not None:
            common["completion/complete"] = self._complete
        legacy = {**common, "ping": self._ping, "logging/setLevel": self._set_level}
        if rt.resources is not None:
            legacy["resources/subscribe"] = self._subscribe
            legacy["resources/unsubscribe"] = self._unsubscribe
        modern = {**common, "server/discover": self._discover}
        return legacy, modern

    async def _ping(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        return {}

    async def _discover(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        result = dict(self._answers["server/discover"])
        del result["_meta"]
        return result

    async def _set_level(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        self.runtime.serving.client_log_level = params["level"]  # checked: surface_check
        return {}

    async def _tools_list(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        return await self.runtime.tools.list_tools(req, paginated(params))  # type: ignore[arg-type]

    def _tools_call(self, req: LeanRequest, params: dict[str, Any]) -> Awaitable[dict[str, Any]]:
        # the runtime's coroutine itself, not one around it: bench/bench_server.py --instructions
        return self.runtime.tools.call(req, params.get("name"), params.get("arguments"))  # type: ignore[arg-type]

    async def _resources_list(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.resources is not None
        return await self.runtime.resources.list_resources(req, paginated(params))  # type: ignore[arg-type]

    async def _templates_list(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.resources is not None
        return await self.runtime.resources.list_templates(req, paginated(params))  # type: ignore[arg-type]

    async def _resources_read(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.resources is not None
        sdk_params = typed("ReadResourceRequestParams", params)
        result: Any = await self.runtime.resources.read_resource(req, sdk_params)  # type: ignore[arg-type]
        return plain(result)

    async def _subscribe(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.resources is not None
        await self.runtime.resources.subscribe(req, typed("SubscribeRequestParams", params))  # type: ignore[arg-type]
        return {}

    async def _unsubscribe(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.resources is not None
        await self.runtime.resources.unsubscribe(req, typed("UnsubscribeRequestParams", params))  # type: ignore[arg-type]
        return {}

    async def _prompts_list(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.prompts is not None
        return await self.runtime.prompts.list_prompts(req, paginated(params))  # type: ignore[arg-type]

    async def _prompts_get(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.prompts is not None
        sdk_params = typed("GetPromptRequestParams", params)
        return plain(await self.runtime.prompts.get_prompt(req, sdk_params))  # type: ignore[arg-type]

    async def _complete(self, req: LeanRequest, params: dict[str, Any]) -> dict[str, Any]:
        assert self.runtime.completions is not None
        sdk_params = typed("CompleteRequestParams", params)
        return plain(await self.runtime.completions.complete(req, sdk_params))  # type: ignore[arg-type]
