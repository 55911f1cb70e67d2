"""A small blocking facade over a generated (async) client, on an event loop thread::

with WeatherClient.stdio(["python", "-m", "weather_server"]).sync() as weather:
    report = weather.call(weather.client.get_weather, city="Paris")   # typed
    report = weather.get_weather(city="Paris")                        # same, untyped
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from types import TracebackType
from typing import Any, Generic, ParamSpec, TypeVar

from anyio.from_thread import BlockingPortal, start_blocking_portal

__all__ = ["SyncClient"]

_C = TypeVar("_C", bound=AbstractAsyncContextManager[Any])
"""The async client wrapped (a ``ToolClient``; anything entered with ``async with``)."""
_P = ParamSpec("_P")
_R = TypeVar("_R")


class SyncClient(Generic[_C]):
    def __init__(self, client: _C) -> None:
        self.client = client
        self._portal: BlockingPortal | None = None
        self._portal_cm: AbstractContextManager[BlockingPortal] | None = None
        self._client_cm: AbstractContextManager[Any] | None = None

    def __enter__(self) -> SyncClient[_C]:
        self._portal_cm = start_blocking_portal()
        portal = self._portal_cm.__enter__()
        # One task enters and exits the client (anyio cancel scopes must not change tasks).
        self._client_cm = portal.wrap_async_context_manager(self.client)
        try:
            self._client_cm.__enter__()
        except BaseException as exc:
            self._portal_cm.__exit__(type(exc), exc, exc.__traceback__)
            self._portal_cm = self._client_cm = None
            raise
        self._portal = portal
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        portal_cm, client_cm = self._portal_cm, self._client_cm
        self._portal = self._portal_cm = self._client_cm = None
        if portal_cm is None or client_cm is None:
            return
        try:
            client_cm.__exit__(exc_type, exc, tb)
        finally:
            portal_cm.__exit__(None, None, None)

    def call(
        self, method: Callable[_P, Awaitable[_R]], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> _R:
        """Run one of the client's async methods and wait for its result."""
        if self._portal is None:
            raise RuntimeError("SyncClient is not open (use `with`)")
        return self._portal.call(functools.partial(method, *args, **kwargs))

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)
        if not callable(method):
            raise AttributeError(name)

        def run(*args: Any, **kwargs: Any) -> Any:
            return self.call(method, *args, **kwargs)

        return run
