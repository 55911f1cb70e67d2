"""Upgrading a package generated before the runtime split (mcpgen 0.1: the runtime, the wire
types and the schema compiler were copied into ``_generated/``): regenerating removes the stale
files atomically, names every import of the user's files that no longer resolves (file:line:col
and the import to use instead), and never rewrites a user file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from tests.server.helpers import REPO, WEATHER

# The 0.1 layout of _generated/ (contents abridged: only the names matter here).
OLD_FILES = {
    "__init__.py": (
        "from .base import WeatherToolsBase\n"
        "from .runtime import ToolContext, ToolError, ToolResult, run_cli\n"
        "from .server import create_server\n"
    ),
    "base.py": "TOOL_METHODS = {}\n",
    "context.py": "class ToolContext: ...\n",
    "model_base.py": "class OpenModel: ...\n",
    "models.py": "class GetWeatherInput: ...\n",
    "runtime.py": "def run_cli(): ...\n",
    "schema_compiler.py": "# 451 lines\n",
    "schema_values.py": "# 129 lines\n",
    "server.py": "def create_server(): ...\n",
    "shaping.py": "# 152 lines\n",
    "tools.py": "TOOL_DEFINITIONS = ()\n",
    "validation.py": "# 91 lines\n",
    "wire.py": "class TextContent: ...\n",
    "wire_base.py": "class WireModel: ...\n",
    "py.typed": "",
}

OLD_HANDLERS = """\
from __future__ import annotations

from ._generated import ToolContext, ToolError, ToolResult, WeatherToolsBase
from ._generated.models import GetWeatherInput, GetWeatherOutput, NoSuchModel
from ._generated.wire import Annotations, ImageContent, MetaObject, TextContent
from ._generated.model_base import OpenModel
from ._generated.runtime import ToolBinding


class Handlers(WeatherToolsBase):
    async def get_weather(self, args: GetWeatherInput, ctx: ToolContext) -> GetWeatherOutput:
        raise ToolError("x")
"""


def _old_package(out: Path) -> Path:
    pkg = out / "weather_server"
    owned = pkg / "_generated"
    owned.mkdir(parents=True)
    for rel, text in OLD_FILES.items():
        (owned / rel).write_text(text)
    marker = {
        "generator": "mcpgen 0.1.0",
        "inputs_sha256": "0" * 64,
        "files": {rel: hashlib.sha256(t.encode()).hexdigest() for rel, t in OLD_FILES.items()},
    }
    (owned / ".mcpgen.json").write_text(json.dumps(marker))
    (pkg / "handlers.py").write_text(OLD_HANDLERS)
    (pkg / "__init__.py").write_text('"""mine"""\n')
    (pkg / "__main__.py").write_text(
        "from ._generated import create_server, run_cli\nfrom .handlers import Handlers\n"
        "if __name__ == '__main__':\n    run_cli(create_server, Handlers())\n"
    )
    return pkg


def _regenerate(out: Path) -> subprocess.CompletedProcess[str]:
    """``mcpgen server`` on the weather manifest into ``out``, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", "server", str(WEATHER)]
        + ["--out", str(out), "--package", "weather_server"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )


def test_upgrade_from_the_copied_runtime_layout(tmp_path: Path) -> None:
    pkg = _old_package(tmp_path)
    user_before = {p: (pkg / p).read_bytes() for p in ("handlers.py", "__init__.py", "__main__.py")}
    proc = _regenerate(tmp_path)
    assert proc.returncode == 0, proc.stderr
    owned = sorted(p.name for p in (pkg / "_generated").iterdir())
    assert owned == [
        ".mcpgen.json",
        "__init__.py",
        "base.py",
        "discovery.py",
        "models.py",
        "py.typed",
        "resources",  # the weather example's view (MCP Apps)
        "server.py",
        "skills",  # the weather example's skill folder
        "tools.py",
    ]
    assert {p: (pkg / p).read_bytes() for p in user_before} == user_before  # never rewritten
    handlers = pkg / "handlers.py"
    warnings = [line for line in proc.stderr.splitlines() if "no longer resolves" in line]
    assert warnings == [
        f"mcpgen: warning: {handlers}:4:1: `from ._generated.models import GetWeatherInput, "
        "GetWeatherOutput, NoSuchModel` no longer resolves; NoSuchModel: not in "
        "_generated.models any more (renamed or removed tool?)",  # not the runtime's (issue 50)
        f"mcpgen: warning: {handlers}:5:1: `from ._generated.wire import Annotations, "
        "ImageContent, "
        "MetaObject, TextContent` no longer resolves (the runtime is the mcpgen-runtime package "
        "now); use: from mcpgen_runtime import Annotations, ImageContent, TextContent; "
        "from mcp_wire.v2026_07_28 import MetaObject",
        f"mcpgen: warning: {handlers}:6:1: `from ._generated.model_base import OpenModel` "
        "no longer "
        "resolves (the runtime is the mcpgen-runtime package now); use: from mcpgen_runtime import "
        "OpenModel",
        f"mcpgen: warning: {handlers}:7:1: `from ._generated.runtime import ToolBinding` no longer "
        "resolves (the runtime is the mcpgen-runtime package now); use: from mcpgen_runtime import "
        "ToolBinding",
    ]
    # ``from ._generated import ToolContext, ...`` still resolves (kept for existing handlers)
    assert not any(":3:1:" in w for w in warnings)

    # after following the advice, the package imports and the warnings are gone
    fixed = (
        OLD_HANDLERS.replace(", NoSuchModel", "")
        .replace(
            "from ._generated.wire import Annotations, ImageContent, MetaObject, TextContent\n",
            "from mcp_wire.v2026_07_28 import MetaObject\n"
            "from mcpgen_runtime import Annotations, ImageContent, TextContent\n",
        )
        .replace(
            "from ._generated.model_base import OpenModel\n",
            "from mcpgen_runtime import OpenModel\n",
        )
        .replace(
            "from ._generated.runtime import ToolBinding\n",
            "from mcpgen_runtime import ToolBinding\n",
        )
    )
    handlers.write_text(fixed)
    again = _regenerate(tmp_path)
    assert again.returncode == 0 and "no longer resolves" not in again.stderr, again.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import weather_server.handlers"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
