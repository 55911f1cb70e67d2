"""``mcpgen --help`` and ``mcpgen --version`` stay light: they import none of the heavy
libraries (checked in a fresh interpreter through the real entry point ``mcpgen.cli.main``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO_ROOT, clean_env

HEAVY = ("datamodel_code_generator", "black", "jinja2", "jsonschema", "pydantic", "mcp_wire")

# Run main(argv) and then print, on the last line of stdout, the top-level names of every module
# loaded. The marker keeps it apart from the help text.
WRAPPER = """
import json, sys
from mcpgen.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print("\\nMODULES=" + json.dumps({"code": code, \
"modules": sorted({m.split('.')[0] for m in sys.modules})}))
"""


def loaded_modules(*argv: str) -> tuple[int, str, set[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, *argv],
        cwd=REPO_ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    head, _, tail = proc.stdout.rpartition("\nMODULES=")
    report = json.loads(tail)
    return report["code"], head, set(report["modules"])


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["protocol", "--help"]])
def test_help_and_version_import_no_heavy_library(argv: list[str]) -> None:
    code, output, modules = loaded_modules(*argv)
    assert code in (0, None)
    assert "mcpgen" in modules and "click" in modules  # the probe sees real imports
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))
    if argv == ["--version"]:
        assert output.strip().startswith("mcpgen, version ")
    else:
        assert "Usage: mcpgen" in output


def test_probe_detects_heavy_imports(spec_dir: Path) -> None:
    """The same probe on a command that really generates does see the heavy libraries."""
    code, _, modules = loaded_modules(
        "protocol",
        "generate",
        "--check",
        "-r",
        "2024-11-05",
        "--from",
        str(spec_dir),
        "--out",
        str(REPO_ROOT / "generated"),
    )
    assert code in (0, None)
    assert {"datamodel_code_generator", "black", "pydantic"} <= modules
