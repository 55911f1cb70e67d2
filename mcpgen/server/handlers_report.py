"""Does ``handlers.py`` still match the tools, and do the user's files still import only what
``_generated/`` has? Static (``ast``), never imports user code.

Used by ``mcpgen server`` on every run, including the no-op fast path, so it imports only the
standard library.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class HandlersReport:
    missing: list[tuple[str, str]] = field(default_factory=list)
    """(label, method name) of tools, resources, templates and prompts without a method in
    ``Handlers``."""
    stale: list[str] = field(default_factory=list)
    """Methods of ``Handlers`` that look like tool methods but match no tool."""
    mismatched: list[tuple[int, int, str, str]] = field(default_factory=list)
    """(line, col, the access as written, method) where a tool method reads its arguments in
    the other ``server.models`` mode's way: ``args.x`` on a typeddict dict, ``args["x"]`` on a
    pydantic model (the first in each method)."""
    problem: str | None = None
    """Why the file could not be checked (syntax error, no ``Handlers`` class)."""


def method_stub(method: str, input_model: str, output_model: str | None) -> str:
    """A ready ``Handlers`` method for a tool that has none yet, and the import it needs
    (names from the generator's facts: identifiers it made, never manifest text)."""
    returns = output_model or "ToolResult"
    models = ", ".join(n for n in (input_model, output_model) if n)
    return (
        f"    async def {method}(self, args: {input_model}, ctx: ToolContext) -> {returns}:\n"
        "        raise NotImplementedError\n"
        f"  with: from ._generated.models import {models}"
    )


def resource_or_prompt_stub(method: str, kind: str, model: str | None) -> str:
    """A ready ``Handlers`` method for a resource, template or prompt (``kind``) without one."""
    if kind == "resource":
        head = f"    async def {method}(self, ctx: ToolContext) -> str:\n"
    elif kind == "completion":
        head = (
            f"    async def {method}(\n        self, argument: str, value: str, "
            "context: Mapping[str, str], ctx: ToolContext\n    ) -> list[str]:\n"
        )
    else:
        param = "params" if kind == "template" else "args"
        typ = model or "Mapping[str, str]"
        head = f"    async def {method}(self, {param}: {typ}, ctx: ToolContext) -> str:\n"
    tail = f"\n  with: from ._generated.models import {model}" if model else ""
    return head + "        raise NotImplementedError" + tail


def handlers_report(
    source: str,
    tool_methods: dict[str, str],
    *,
    class_name: str = "Handlers",
    typed_methods: frozenset[str] = frozenset(),
    typeddict: bool = False,
) -> HandlersReport:
    """Compare ``handlers.py`` (parsed, never imported) with the tools (method -> tool name).
    ``typed_methods``: the tool methods whose arguments follow ``server.models`` (``typeddict``
    or not): their reads of the other mode's kind are reported."""
    report = HandlersReport()
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        report.problem = f"cannot parse handlers.py: {exc.msg} (line {exc.lineno})"
        return report
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
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
    for name in sorted(typed_methods & methods.keys()):
        found = _other_mode_read(methods[name], typeddict)
        if found is not None:
            report.mismatched.append((*found, name))
    return report


_DICT_METHODS = frozenset(dir(dict))


def _other_mode_read(
    node: ast.FunctionDef | ast.AsyncFunctionDef, typeddict: bool
) -> tuple[int, int, str] | None:
    """The first read of the arguments parameter the other mode's way: ``args.name`` (not a
    dict method) under typeddict, ``args["name"]`` under pydantic."""
    params = [a.arg for a in node.args.args]
    if len(params) < 2:
        return None
    arg = params[1]
    for sub in ast.walk(node):
        if typeddict and isinstance(sub, ast.Attribute):
            hit = sub.attr not in _DICT_METHODS
        elif not typeddict and isinstance(sub, ast.Subscript):
            hit = True
        else:
            continue
        if hit and isinstance(sub.value, ast.Name) and sub.value.id == arg:
            return sub.lineno, sub.col_offset + 1, ast.unparse(sub)
    return None


# --- imports of generated modules that no longer resolve (upgrades) ------------------------

# Modules that packages generated before mcpgen-runtime had in ``_generated/``, and where
# their public names live now.
_MOVED_MODULES: dict[str, str] = {
    "wire": "mcp_wire.v2026_07_28",
    "wire_base": "mcp_wire._base",
    "runtime": "mcpgen_runtime",
    "context": "mcpgen_runtime",
    "model_base": "mcpgen_runtime.models",
    "shaping": "mcpgen_runtime.server.shaping",
    "validation": "mcpgen_runtime.server.validation",
}


@dataclass(frozen=True)
class BrokenImport:
    line: int
    col: int
    statement: str
    """The import as written (one line)."""
    replacement: str
    """The import(s) to use instead, ``; ``-separated, or a hint when none is known."""
    to_runtime: bool = False
    """Some name moved to ``mcpgen_runtime`` (the runtime package of today)."""


def _home_of(name: str, moved_to: str | None, runtime_names: set[str]) -> str | None:
    if name in runtime_names:
        return "mcpgen_runtime"
    if name == "OpenModel":
        return "mcpgen_runtime.models"
    return moved_to


def broken_imports(
    source: str,
    package: str,
    modules: Callable[[str], set[str] | None],
    runtime_names: set[str],
) -> list[BrokenImport]:
    """``from ._generated[.X] import ...`` statements (relative, or absolute through
    ``package``) naming a module or a name the regenerated ``_generated/`` lacks.

    ``modules``: module of ``_generated`` ("" for the package itself) -> its top-level names,
    or None when there is no such module (called only for modules user code imports);
    ``runtime_names``: the public names of ``mcpgen_runtime``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found: list[BrokenImport] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        if node.level == 1:
            module = node.module
        elif node.level == 0 and node.module.startswith(package + "."):
            module = node.module[len(package) + 1 :]
        else:
            continue
        if module != "_generated" and not module.startswith("_generated."):
            continue
        sub = module[len("_generated.") :] if module != "_generated" else ""
        have = modules(sub)
        moved_to = _MOVED_MODULES.get(sub)
        missing: list[str] = []
        for alias in node.names:
            if have is not None and alias.name in have:
                continue
            if not sub and modules(alias.name) is not None:
                continue  # ``from ._generated import models``
            missing.append(alias.name)
        if not missing:
            continue
        targets: dict[str, list[str]] = {}
        unknown: list[str] = []
        renamed_base: list[str] = []
        for name in missing:
            if name.endswith("ToolsBase") and sub in ("", "base"):
                # the base class followed server.name in earlier versions; it is ToolsBase now
                renamed_base.append(name)
                continue
            home = _home_of(name, moved_to, runtime_names)
            if home is None:
                unknown.append(name)
            else:
                targets.setdefault(home, []).append(name)
        hints = [f"from {home} import {', '.join(names)}" for home, names in targets.items()]
        hints += [
            f"from ._generated import ToolsBase (and `class Handlers(ToolsBase)`; {name} followed "
            "server.name, ToolsBase never changes)"
            for name in renamed_base
        ]
        if unknown:
            import difflib

            where = f"_generated.{sub}" if sub else "_generated"
            close = [
                m[0]
                for n in unknown
                if (m := difflib.get_close_matches(n, sorted(have or ()), n=1, cutoff=0.5))
            ]
            now = f"; {where} has {', '.join(close)} now" if close else ""
            hints.append(
                f"{', '.join(unknown)}: not in {where} any more (renamed or removed tool?){now}"
            )
        statement = ast.get_source_segment(source, node) or f"from {module} import ..."
        found.append(
            BrokenImport(
                line=node.lineno,
                col=node.col_offset + 1,
                statement=" ".join(statement.split()),
                replacement="; ".join(hints),
                to_runtime=any(h.startswith("mcpgen_runtime") for h in targets),
            )
        )
    return found
