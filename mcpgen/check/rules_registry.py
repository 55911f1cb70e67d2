"""The MCP Registry rule: with ``server.registry`` set, the server's version is written in up
to three places (the manifest's ``server.version``, ``[project].version`` of its
``pyproject.toml``, and a ``server.json`` beside either), and a registry entry written by hand
drifts from the package (serac#292). Each place that disagrees with the manifest is reported
in its own file, and the manifest's version once, pointing at them.

Reads ``pyproject.toml`` and ``server.json`` only when a registry name is set.
"""

from __future__ import annotations

from pathlib import Path

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, W, checker, rule
from mcpgen.diagnostics import Location

rule(
    "REGISTRY_VERSION_AGREEMENT",
    LINT,
    W,
    "With server.registry set: the manifest's server.version, pyproject.toml's "
    "[project].version and an existing server.json (its version and its pypi package's) agree.",
    why="The registry lists, and clients install, the version server.json names: one that "
    "differs from the package's points users at another release, or at none.",
)


def _server_json_versions(
    path: Path, broken: list[tuple[Location, str]]
) -> list[tuple[Location, str]]:
    """``version`` and each pypi package's ``version`` of ``path``, located. A file that is
    not JSON has none; it is added to ``broken`` (where, why), since its versions cannot be
    checked (``mcpgen export server-json`` rewrites it)."""
    from mcpgen.manifest.jsonpos import JsonSyntaxError, parse_json

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        broken.append((Location(str(path), 1, 1, ""), f"cannot be read ({exc})"))
        return []
    try:
        doc, loc = parse_json(text, 64)
    except JsonSyntaxError as exc:
        line = text.count("\n", 0, exc.offset) + 1
        col = exc.offset - (text.rfind("\n", 0, exc.offset) + 1) + 1
        broken.append((Location(str(path), line, col, ""), f"is not JSON ({exc.message})"))
        return []
    except RecursionError:
        broken.append((Location(str(path), 1, 1, ""), "is nested too deeply to read"))
        return []
    if not isinstance(doc, dict):
        return []
    places = []
    if isinstance(doc.get("version"), str):
        places.append(("/version", doc["version"]))
    packages = doc.get("packages")
    for i, pkg in enumerate(packages if isinstance(packages, list) else ()):
        if isinstance(pkg, dict) and pkg.get("registryType") == "pypi":
            if isinstance(pkg.get("version"), str):
                places.append((f"/packages/{i}/version", pkg["version"]))
    out = []
    for pointer, value in places:
        off = loc.offset(pointer)
        line, col = loc.line_col(off) if off is not None else (1, 1)
        out.append((Location(str(path), line, col, pointer), value))
    return out


def _describe(where: Location) -> str:
    name = Path(where.path).name
    if name == "pyproject.toml":
        return f"{where.path} [project].version"
    field = where.pointer.lstrip("/").replace("/", ".")
    return f"{where.path} {field}"


@checker("REGISTRY_VERSION_AGREEMENT", scope="manifest")
def check_registry_versions(ctx: ManifestCtx) -> None:
    from mcpgen.publish.packaging import (
        find_server_pyproject,
        manifest_registry_name,
        read_packaging,
    )

    m = ctx.manifest
    if manifest_registry_name(m.raw) is None:
        return
    server = m.raw.get("server")
    pointer = "/server/version" if isinstance(server, dict) and "version" in server else "/server"
    version = m.server.version
    others: list[tuple[Location, str]] = []
    pyproject = find_server_pyproject(Path(m.path))
    folders = [Path(m.path).parent]
    if pyproject is not None:
        folders.append(pyproject.parent)
        try:
            pk = read_packaging(pyproject)
        except Exception:  # noqa: BLE001 - an unreadable pyproject.toml is not this rule's
            pk = None
        if pk is not None and pk.version is not None:
            line, col = pk.version_at
            others.append((Location(str(pyproject), line, col, ""), pk.version))
    seen: set[Path] = set()
    for folder in folders:
        candidate = folder / "server.json"
        real = candidate.resolve()
        if real in seen or not candidate.is_file():
            continue
        seen.add(real)
        broken: list[tuple[Location, str]] = []
        others += _server_json_versions(candidate, broken)
        for where, why in broken:
            ctx.sink.emit_at(
                "REGISTRY_VERSION_AGREEMENT",
                where,
                f"server.json {why}: its versions cannot be checked against the manifest's "
                f"{version!r} (mcpgen export server-json -o {where.path} rewrites it)",
            )
    wrong = [(where, value) for where, value in others if value != version]
    if not wrong:
        return
    here = ctx.sink.location(pointer)
    for where, value in wrong:
        ctx.sink.emit_at(
            "REGISTRY_VERSION_AGREEMENT",
            where,
            f"version {value!r} here, but the manifest's server.version is {version!r}: the "
            "registry entry, the package and the server must say one version",
            (here,),
        )
    said = ", ".join(f"{_describe(w)} says {v!r}" for w, v in wrong)
    ctx.emit(
        "REGISTRY_VERSION_AGREEMENT",
        pointer,
        f"server.version is {version!r} but {said}",
        related=tuple(w for w, _ in wrong),
    )
