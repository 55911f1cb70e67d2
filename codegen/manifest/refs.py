"""Bundling of shared ``$defs`` and file ``$ref``s into each tool's schemas (work in progress)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codegen.diagnostics import Diagnostic
from codegen.manifest.sourcemap import Document


class Bundler:
    def __init__(self, doc: Document, base_dir: Path, diags: list[Diagnostic]) -> None:
        self.doc = doc
        self.base_dir = base_dir
        self.diags = diags

    def bundle_tool(self, tool: dict[str, Any], pointer: str) -> dict[str, Any]:
        return tool
