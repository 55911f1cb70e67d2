"""Does ``handlers.py`` still match the tools? Static (``ast``), never imports user code.

Used by ``mcpgen server`` on every run, including the no-op fast path, so it imports only the
standard library.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass
class HandlersReport:
    missing: list[tuple[str, str]] = field(default_factory=list)
    """(tool name, method name) of tools without a method in ``Handlers``."""
    stale: list[str] = field(default_factory=list)
    """Methods of ``Handlers`` that look like tool methods but match no tool."""
    problem: str | None = None
    """Why the file could not be checked (syntax error, no ``Handlers`` class)."""


def tool_methods_from_base(base_source: str) -> dict[str, str]:
    """``TOOL_METHODS`` (method -> tool name) from a generated ``base.py``, read with ``ast``."""
    tree = ast.parse(base_source)
    for node in tree.body:
        if not isinstance(node, ast.AnnAssign):
            continue
        target = node.target
        if isinstance(target, ast.Name) and target.id == "TOOL_METHODS" and node.value is not None:
            value = ast.literal_eval(node.value)
            if isinstance(value, dict):
                return {str(k): str(v) for k, v in value.items()}
    raise ValueError("base.py has no TOOL_METHODS table")


def handlers_report(
    source: str, tool_methods: dict[str, str], *, class_name: str = "Handlers"
) -> HandlersReport:
    """Compare ``handlers.py`` (parsed, never imported) with the tools (method -> tool name)."""
    report = HandlersReport()
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        report.problem = f"cannot parse handlers.py: {exc.msg} (line {exc.lineno})"
        return report
    cls = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None
    )
    if cls is None:
        report.problem = f"handlers.py has no class {class_name}"
        return report
    methods = {
        n.name: n for n in cls.body if isinstance(n, (ast.AsyncFunctionDef, ast.FunctionDef))
    }
    for method, tool in tool_methods.items():
        if method not in methods:
            report.missing.append((tool, method))
    for name, node in methods.items():
        if name in tool_methods or name.startswith("_"):
            continue
        # A tool method is ``async def m(self, args, ctx)``; helpers are left alone.
        params = [a.arg for a in node.args.args]
        if isinstance(node, ast.AsyncFunctionDef) and params[1:] == ["args", "ctx"]:
            report.stale.append(name)
    return report
