"""Each revision's package loads its models by group (``mcpgen.protocol.split``): importing a
content type creates the ``content`` models only, and every name is one class however it is
imported."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys

import pytest

from mcpgen.protocol.split import CONTENT_ROOTS

from .conftest import PINS_FILE, REPO_ROOT, clean_env

PINS = json.loads(PINS_FILE.read_text(encoding="utf-8"))["revisions"]
MODULES = sorted(f"mcp_wire.{entry['module']}" for entry in PINS.values())


def _fresh(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_runtimes_content_types_leave_the_other_models_unloaded() -> None:
    out = _fresh(
        "import sys, json\n"
        "import mcpgen_runtime as r\n"
        "from mcpgen_runtime import content\n"
        "names = [n for n in dir(content) if n in r.__all__]\n"
        "blocks = [getattr(r, n) for n in names]\n"
        "TC = r.TextContent(type='text', text='hi')\n"
        "r.CallToolResult(content=[TC], result_type='complete').model_dump()\n"
        "print(json.dumps({'names': names, 'loaded': sorted(m for m in sys.modules"
        " if m.startswith('mcp_wire'))}))\n"
    )
    got = json.loads(out)
    assert "TextContent" in got["names"] and "CallToolResult" in got["names"]
    assert "mcp_wire.v2026_07_28.content" in got["loaded"]
    assert "mcp_wire.v2026_07_28.protocol" not in got["loaded"]


def test_content_roots_cover_what_the_runtime_exports() -> None:
    """``mcpgen_runtime``'s content exports (``__init__.pyi``) all come from the content group."""
    stub = REPO_ROOT / "runtime" / "mcpgen_runtime" / "__init__.pyi"
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    exported = {
        a.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == "content"
        for a in node.names
    }
    assert exported and exported <= set(CONTENT_ROOTS)


@pytest.mark.parametrize("module", MODULES)
def test_content_models_build_from_their_own_module(module: str) -> None:
    """Every content model's validator builds (forward references resolved) while the
    ``protocol`` module of the revision has never been imported."""
    out = _fresh(
        "import sys, importlib\n"
        f"c = importlib.import_module('{module}.content')\n"
        "for n in c.__all__:\n"
        "    getattr(c, n).model_rebuild(force=True)\n"
        f"print('{module}.protocol' in sys.modules, len(c.__all__))\n"
    )
    loaded, count = out.split()
    assert loaded == "False" and int(count) > 0


@pytest.mark.parametrize("module", MODULES)
def test_every_name_is_one_class_however_imported(module: str) -> None:
    package = importlib.import_module(module)
    content = importlib.import_module(f"{module}.content")
    protocol = importlib.import_module(f"{module}.protocol")
    assert not set(content.__all__) & set(protocol.__all__)
    assert sorted(package.__all__) == sorted([*content.__all__, *protocol.__all__])
    for name in package.__all__:
        cls = getattr(package, name)
        home = content if name in content.__all__ else protocol
        assert cls is getattr(home, name), name
        assert cls.__module__ == home.__name__
        cls.model_rebuild(force=True)
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchModel'"):
        package.NoSuchModel  # noqa: B018
    star: dict[str, object] = {}
    exec(f"from {module} import *", star)  # noqa: S102
    assert {n for n in star if n != "__builtins__"} == set(package.__all__)
