"""Breaking changes between two tool lists: the rules of ``mcpgen breaking``, ``mcpgen drift``
and a generated client's ``verify=True``, in one place (plain JSON values, standard library only,
so a deployed client needs no generator).

buf's design: tools (and, inside schemas, properties) are paired by name once, and each rule
only compares a pair. Every finding names a JSON pointer on the new side and one on the old
side (callers turn them into file positions, or ignore them). Local ``$ref``s are followed on
both sides; nested objects (``properties`` chains and array ``items``) are compared recursively.

Modules by subject: ``rules`` (ids, severities, reasons), ``pairs`` (what is compared),
``schemas`` (inputs and outputs), ``bounds`` (value bounds), ``annotations`` (safety hints),
``surface`` (resources, templates, prompts), ``access`` (OAuth scopes);
``tools`` pairs the tools by name and runs each subject's comparison on every pair.

This package module imports only the rule table, so listing the rules (``mcpgen check``,
``mcpgen rules``) does not load the comparisons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules import BREAKING, RULES

if TYPE_CHECKING:
    from .pairs import Emit, ToolRef
    from .surface import Entry, compare_surface
    from .tools import compare_tools

__all__ = ["BREAKING", "RULES", "Emit", "Entry", "ToolRef", "compare_surface", "compare_tools"]

_LAZY = {
    "Emit": "pairs",
    "ToolRef": "pairs",
    "Entry": "surface",
    "compare_surface": "surface",
    "compare_tools": "tools",
}


def __getattr__(name: str) -> Any:
    """The comparisons, imported on first use (PEP 562)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
