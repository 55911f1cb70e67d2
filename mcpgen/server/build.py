"""``mcpgen server``'s work, between the command line and the pure generator: the package's
spec and generate function for ``mcpgen.packages`` (no-op check, render, format, write or diff),
and the report on the user's files (tools without a method, stale methods, imports of
``_generated`` that no longer resolve).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcpgen import packages
from mcpgen.packages import Generated, Outcome, PackageSpec, Rendered
from mcpgen.server import layout

if TYPE_CHECKING:
    from mcpgen.manifest.model import Manifest

__all__ = [
    "SPEC",
    "Outcome",
    "RenderedPackage",
    "build_server_package",
    "compute_digest",
    "render_package",
    "user_file_warnings",
]

OWNED_DIR = packages.OWNED_DIR
USER_FILES = layout.USER_FILES
SPEC = PackageSpec(
    kind="server",
    templates=layout.TEMPLATES,
    user_files=layout.USER_FILES,
    runtime_sources=layout.RUNTIME_SOURCES,
)

RenderedPackage = Rendered


def _generate(loaded: Manifest, package: str, manifest_name: str) -> Generated:
    from mcpgen.server.generate import generate_server
    from mcpgen.server.ir import build_server_ir

    ir = build_server_ir(loaded, package=package, manifest_name=manifest_name)
    files = generate_server(ir)
    tools = [
        {"tool": t.name, "method": t.method_name, "input": t.input_model, "output": t.output_model}
        | ({"forwarded": t.forwarded} if t.forwarded else {})
        for t in ir.tools
    ]
    # "surface" stays the key in _generated/.mcpgen.json (packages already written carry it)
    surface = [
        {"kind": i.kind, "key": i.key, "method": i.method_name, "model": i.model}
        for i in ir.resource_and_prompt_methods
    ] + [
        {"kind": "completion", "key": f"{i.kind} {i.key}", "method": i.complete_method}
        for i in ir.completer_methods
    ]
    return Generated(
        owned=files.owned,
        user=files.user,
        name=ir.server_name,
        facts={"tools": tools, "surface": surface, "modules": files.names, "models": ir.models},
    )


def compute_digest(
    manifest_path: Path, package: str, dependencies: dict[str, str] | None = None
) -> str:
    """sha256 over everything the output depends on (stdlib only; no generator import)."""
    return packages.compute_digest(SPEC, manifest_path, package, dependencies)


def render_package(manifest: Path, package: str) -> Rendered:
    """Load, render and format a server package in memory (what ``mcpgen server`` writes)."""
    return packages.render(SPEC, manifest, package, _generate)


def build_server_package(
    manifest: Path, out_dir: Path, package: str, *, check: bool, force: bool = False
) -> Outcome:
    """Generate (or with ``check``, compare) ``out_dir/package``. Raises ``McpgenError`` on bad
    input, leaving the tree as it was."""
    return packages.build(
        SPEC,
        manifest,
        out_dir,
        package,
        check=check,
        generate=_generate,
        force=force,
        warnings=lambda pkg_dir, facts: user_file_warnings(pkg_dir, package, facts),
    )


def user_file_warnings(
    pkg_dir: Path, package: str, facts: Mapping[str, Any] | None = None
) -> list[str]:
    """Warnings about the user's files: tools without a method in ``handlers.py`` (with a
    ready stub), methods whose tool is gone, and imports of ``_generated`` modules or names
    that no longer exist (with the import to use instead). ``facts``: the generator's record of
    each tool's method and models and of the names each ``_generated`` module defines."""
    from mcpgen.server.handlers_report import (
        broken_imports,
        handlers_report,
        method_stub,
        resource_or_prompt_stub,
    )

    warnings: list[str] = []
    recorded = (facts or {}).get("modules")
    modules = recorded if isinstance(recorded, dict) else {}

    def names_of(sub: str) -> set[str] | None:
        names = modules.get(sub)
        return set(names) if isinstance(names, list) else None

    runtime_names = _runtime_public_names()
    for rel in USER_FILES if modules else ():
        path = pkg_dir / rel
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "_generated" not in source:
            continue
        for b in broken_imports(source, package, names_of, runtime_names):
            why = " (the runtime is the mcpgen-runtime package now)" if b.to_runtime else ""
            warnings.append(
                f"{path}:{b.line}:{b.col}: `{b.statement}` no longer resolves{why}; "
                f"{'use: ' if b.replacement.startswith('from ') else ''}{b.replacement}"
            )
    handlers = pkg_dir / "handlers.py"
    try:
        source = handlers.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return warnings
    tools = {
        t["method"]: t
        for t in (facts or {}).get("tools", [])
        if isinstance(t, dict) and not t.get("forwarded")  # the runtime forwards these
    }
    surface = {s["method"]: s for s in (facts or {}).get("surface", []) if isinstance(s, dict)}
    labels = {m: f"tool {t['tool']!r}" for m, t in tools.items()}
    labels.update({m: f"{s['kind']} {s['key']!r}" for m, s in surface.items()})
    typeddict = (facts or {}).get("models") == "typeddict"
    report = handlers_report(source, labels, typed_methods=frozenset(tools), typeddict=typeddict)
    if report.problem:
        warnings.append(f"{handlers}: {report.problem}")
        return warnings
    for label, method in report.missing:
        if method in surface:
            s = surface[method]
            stub = resource_or_prompt_stub(method, str(s["kind"]), s.get("model"))
        else:
            t = tools[method]
            stub = method_stub(method, str(t["input"]), t.get("output"))
        warnings.append(
            f"{handlers}: {label} has no method in Handlers (until there is one, it "
            "answers 'not implemented yet'); add:\n" + stub
        )
    for line, col, access, method in report.mismatched:
        warnings.append(
            f"{handlers}:{line}:{col}: `{access}` in {method}: "
            + (
                "with server.models: typeddict the arguments are a dict (the JSON as sent): "
                'read them as args["name"] or args.get("name", default)'
                if typeddict
                else "with server.models: pydantic the arguments are the input model: read "
                "them as attributes (args.name)"
            )
        )
    for method in report.stale:
        warnings.append(
            f"{handlers}: method {method!r} matches no tool in the manifest (removed or renamed?)"
        )
    return warnings


def _runtime_public_names() -> set[str]:
    import mcpgen_runtime

    # lazy_loader.attach_stub sets __all__ from the stub (which type checkers read, and which
    # has no __all__ of its own)
    names: list[str] = getattr(mcpgen_runtime, "__all__")  # noqa: B009
    return set(names)
