"""``mcpgen export server-json`` offline (issue 50): when the registry's schema cannot be
downloaded and is in no cache, the error names ``$MCPGEN_REGISTRY_SCHEMA_DIR``, the way to give
it a copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.publish import registry_schema


def test_offline_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def offline(url: str, what: str, timeout: float) -> bytes:
        raise McpgenError(f"cannot download {what}: <urlopen error no network>", path=url)

    monkeypatch.setattr(registry_schema, "download", offline)
    with pytest.raises(McpgenError) as exc:
        registry_schema._load.__wrapped__(tmp_path / "none" / "server.schema.json", False, 1.0)
    message = str(exc.value)
    assert "cannot download" in message and "$MCPGEN_REGISTRY_SCHEMA_DIR" in message
    assert "server.schema.json" in message
