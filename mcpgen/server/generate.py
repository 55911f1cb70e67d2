"""Server package generation: ``ServerIR`` -> ``{relative path: text}``. Pure (no file I/O).

Two trees come out:

* ``owned``: the files of ``<package>/_generated/`` (rewritten on every run, each starting
  with the ``DO NOT EDIT`` header); only what depends on the manifest: the typed models, the
  tool definitions, the typed base class, the binding table and the runtime version check.
  Everything else is ``mcpgen-runtime``;
* ``user``: ``<package>/__init__.py``, ``handlers.py``, ``__main__.py`` (created once).

The texts are not formatted yet: ``mcpgen.format.format_tree`` does that at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpgen.parameters import tool_models
from mcpgen.render import header_line, render
from mcpgen.server.ir import ServerIR
from mcpgen.server.layout import OWNED_TEMPLATES, USER_TEMPLATES
from mcpgen.typegen import generate_tool_models


@dataclass(frozen=True)
class ServerFiles:
    owned: dict[str, str | bytes]
    """Paths relative to ``<package>/_generated`` (bytes: package data)."""
    user: dict[str, str]
    """Paths relative to ``<package>``."""
    names: dict[str, list[str]]
    """Each ``_generated`` module (``""``: the package, ``"models"``, ...) -> the names it
    defines or exports (what user code may import from it), from the IR and the models run."""


def generate_server(ir: ServerIR) -> ServerFiles:
    """Render every file of the package (unformatted)."""
    header = header_line(ir.manifest_name)
    if ir.typeddict:
        run = generate_tool_models(ir.model_specs, typeddict=True)
    else:
        run = tool_models(ir.model_specs).run
    bodies = {"models.py": run.source}
    owned: dict[str, str | bytes] = {
        rel: render(template, header=header, ir=ir, body=bodies.get(rel, ""))
        for rel, template in OWNED_TEMPLATES.items()
    }
    user = {rel: render(template, ir=ir) for rel, template in USER_TEMPLATES.items()}
    # package data: ``file:`` contents, byte for byte
    for item in ir.resources_and_prompts.resources:
        if item.data is not None and item.data_path is not None:
            owned[item.data_path] = item.data
    for skill in ir.skills:  # skill folders, byte for byte
        for f in skill.files:
            owned[f"{skill.package_dir}/{f.path}"] = f.data
    return ServerFiles(owned=owned, user=user, names=module_names(ir, list(run.models)))


def module_names(ir: ServerIR, models: list[str]) -> dict[str, list[str]]:
    """What each template of ``OWNED_TEMPLATES`` binds at module level (kept true by
    tests/server/test_module_names.py, which reads the generated modules)."""
    bases = [ir.base_class] + ([ir.legacy_base_alias] if ir.legacy_base_alias else [])
    bindings = ["SERVER_INFO", "BINDINGS", "create_runtime", "create_server"]
    for name, items in (
        ("RESOURCES", ir.resources_and_prompts.resources),
        ("TEMPLATES", ir.resources_and_prompts.templates),
        ("PROMPTS", ir.resources_and_prompts.prompts),
    ):
        if items:
            bindings.append(name)
    if ir.skills:
        bindings.append("SKILLS")
    package = bases + ["RUNTIME_API", "ToolContext", "ToolError", "ToolResult"]
    package += ["create_runtime", "create_server", "load_handlers", "main", "run_cli"]
    return {
        "": sorted(package),
        "base": sorted(bases),
        "models": sorted(models),
        "server": sorted(bindings),
        "tools": ["TOOL_DEFINITIONS"],
        "discovery": ["ANSWERS", "RUNTIME_VERSION"],
    }
