"""``mcpgen init``'s project: a starter manifest, its handlers, packaging and a test. Pure: the
project as ``{relative path: text}``; ``mcpgen.commands.init`` writes it (create-once) and then
generates the server package with ``mcpgen server``'s own code."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from mcpgen.errors import McpgenError
from mcpgen.naming import package_name_problem
from mcpgen.resources import schema_dir
from mcpgen.server.ir import BASE_CLASS
from mcpgen.wheelhouse import WHEELS_DIR
from mcpgen_runtime import __version__ as runtime_version

MANIFEST = "tools.yaml"


@dataclass(frozen=True)
class Project:
    server_name: str
    package: str
    files: dict[str, str]
    """Paths relative to the project directory (forward slashes)."""


def default_package(directory: Path) -> str:
    """``my-weather`` -> ``my_weather_server``."""
    stem = re.sub(r"[^0-9a-zA-Z]+", "_", directory.resolve().name).strip("_").lower() or "mcp"
    if stem[0].isdigit():
        stem = "mcp_" + stem
    return stem if stem.endswith("_server") else stem + "_server"


def schema_reference(project_dir: Path) -> str:
    """The manifest schema as yaml-language-server should find it from ``project_dir``: the file
    shipped with this mcpgen, relative when it can be."""
    target = (schema_dir() / "manifest.schema.json").resolve()
    try:
        return Path(os.path.relpath(target, project_dir.resolve())).as_posix()
    except ValueError:  # another drive (Windows)
        return target.as_uri()


def install_command(*, wheels: bool) -> str:
    """The project's install step, from inside its directory."""
    find = f"--find-links {WHEELS_DIR} " if wheels else ""
    return f"python3 -m venv .venv && .venv/bin/pip install {find}-e '.[dev]'"


def next_step(project_dir: Path, *, wheels: bool) -> str:
    """The one command ``mcpgen init`` prints: enter, install into a fresh venv, test."""
    return (
        f"cd {shlex.quote(str(project_dir))} && {install_command(wheels=wheels)} "
        "&& .venv/bin/pytest"
    )


def scaffold(
    project_dir: Path,
    *,
    package: str | None = None,
    name: str | None = None,
    wheels: bool = False,
    view: bool = False,
) -> Project:
    from mcpgen.render import render

    package = package or default_package(project_dir)
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    server_name = name or project_dir.resolve().name or package
    if not server_name.strip():
        raise McpgenError("--name must not be blank")
    context = {
        "server_name": server_name,
        "package": package,
        "dist_name": package.replace("_", "-"),
        "base_class": BASE_CLASS,
        "runtime_spec": f"=={runtime_version}",
        "schema_path": schema_reference(project_dir),
        "wheels": wheels,
        "wheels_dir": WHEELS_DIR,
        "install": install_command(wheels=wheels),
        "view": view,
    }
    files = {
        MANIFEST: render("init/tools.yaml.jinja", **context),
        "pyproject.toml": render("init/pyproject.toml.jinja", **context),
        "README.md": render("init/README.md.jinja", **context),
        ".gitignore": render("init/gitignore.jinja", **context),
        f"{package}/handlers.py": render("init/handlers.py.jinja", **context),
        f"{package}/__main__.py": render("init/main.py.jinja", **context),
        "tests/test_server.py": render("init/test_server.py.jinja", **context),
    }
    if view:
        files.update(view_files())
    return Project(server_name=server_name, package=package, files=files)


VIEW_DIR = "view"
"""Where ``init --view`` puts the MCP Apps view: its sources (``src/``), its pinned npm
dependencies (``package.json``, ``package-lock.json``: ext-apps' ``App``, esbuild), its build
script and the built ``dist/index.html`` (one HTML file, no CDN), which the manifest serves."""


def view_files() -> dict[str, str]:
    """The starter view's files (``templates/init/view``), as written: nothing in them depends
    on the project, and ``dist/index.html`` (stored as ``built.html``) is the build of ``src/``
    with these pins (tests/apps/test_starter.py rebuilds it)."""
    from mcpgen.resources import templates_dir

    root = templates_dir() / "init" / "view"
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and "node_modules" not in path.parts:
            rel = RENAMED.get(path.relative_to(root).as_posix(), path.relative_to(root).as_posix())
            out[f"{VIEW_DIR}/{rel}"] = path.read_text(encoding="utf-8")
    return out


RENAMED = {"gitignore": ".gitignore", "built.html": "dist/index.html"}
"""Template files stored under another name (``dist/`` and dot files are ignored by git and by
wheel builds)."""
