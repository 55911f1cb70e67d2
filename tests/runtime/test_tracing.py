"""The SDK's OpenTelemetry span middleware is dropped when nothing would record its spans,
and kept when a tracer provider is set or the operator asks for it (``MCPGEN_OTEL=1``)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from mcpgen_runtime import ServerInfo, ToolBinding, build_server


class _In(BaseModel):
    pass


class _Handlers:
    async def noop(self, args: Any, ctx: Any) -> str:
        return "ok"


def _server() -> Any:
    binding = ToolBinding(
        definition_json='{"name":"noop","inputSchema":{"type":"object"}}',
        method="noop",
        input_model=_In,
    )
    return build_server(_Handlers(), [binding], ServerInfo(name="t", version="1"))


def _has_span_middleware(server: Any) -> bool:
    return any(type(m).__name__ == "OpenTelemetryMiddleware" for m in server.middleware)


def test_no_tracer_no_span_middleware(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCPGEN_OTEL", raising=False)
    monkeypatch.delenv("OTEL_TRACES_EXPORTER", raising=False)
    assert not _has_span_middleware(_server())


def test_operator_keeps_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPGEN_OTEL", "1")
    assert _has_span_middleware(_server())
    monkeypatch.delenv("MCPGEN_OTEL")
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")
    assert _has_span_middleware(_server())


def test_a_tracer_provider_keeps_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    from opentelemetry import trace

    monkeypatch.delenv("MCPGEN_OTEL", raising=False)
    monkeypatch.delenv("OTEL_TRACES_EXPORTER", raising=False)
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: trace.NoOpTracerProvider())
    assert _has_span_middleware(_server())
