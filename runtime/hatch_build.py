"""Ship ``mcp_wire`` (generated into ../generated/mcp_wire) inside the runtime wheel.

A regular build copies it in; an editable build does not (a copy would shadow the checkout):
there ``dev-mode-dirs`` puts ../generated on ``sys.path`` instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class WireModelsHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        wire = Path(self.root).parent / "generated" / "mcp_wire"
        if not wire.is_dir():  # building from an sdist: mcp_wire is already inside
            return
        build_data["force_include"][str(wire)] = "mcp_wire"
