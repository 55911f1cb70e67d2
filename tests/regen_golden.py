"""Rewrite every golden tree: ``python -m tests.regen_golden``. Review the diff before committing.

The golden manifests, each generated through ``mcpgen server``, ``mcpgen client`` and
``mcpgen cli`` (``tests/test_golden.py`` regenerates them and compares byte for byte):

* ``weather``: ``examples/weather/tools.yaml``, the example;
* ``conformance``: ``examples/conformance/tools.yaml``, the conformance suite's fixture server;
* ``everything``: ``tests/golden/everything/tools.yaml``, the reference server
  ``@modelcontextprotocol/server-everything`` 2026.8.31 (pinned in ``tests/interop/js``) as
  ``mcpgen pull`` wrote it, pulled once from ``tests/interop/js`` with ``node`` on the PATH:
  ``mcpgen pull --stdio "node node_modules/@modelcontextprotocol/server-everything/dist/index.js
  stdio" -o ../../golden/everything/tools.yaml``;
* ``shop``: ``tests/golden/shop/openapi.json``, the FastAPI app of ``tests/openapi/shop_app.py``
  (``app.openapi()`` dumped as JSON, indent 2), through ``mcpgen import openapi``; the imported
  manifest, ``tests/golden/shop/tools.yaml``, is golden too;
* ``hostile``: ``tests/golden/hostile/tools.yaml``, written by hand: quotes, backslashes,
  Jinja syntax, HTML, unicode, control characters, long strings, keywords, names that differ
  only in case or collide once mangled.

Each golden tree is ``tests/golden/<name>/{server,client,cli}/<name>_<kind>/``: the
``_generated/`` files and the user files as first created, everything ``mcpgen`` writes into a
new directory except ``_generated/.mcpgen.json`` (it names the generator's version; the
no-op and ``--check`` tests cover it).

This command also runs the two older ones, which still work alone and rewrite only their own
trees: ``python -m tests.server.regen_golden`` (the weather example's ``_generated/`` and
``tests/server/golden/``) and ``python -m tests.client.regen_golden``
(``tests/client/golden/weather_client/``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden"
KINDS = ("server", "client", "cli")
MARKER = ".mcpgen.json"
COMMAND = "python -m tests.regen_golden"


@dataclass(frozen=True)
class Case:
    name: str
    manifest: Path
    """The manifest to generate from; for an OpenAPI case, the document to import."""
    openapi: bool = False

    def outputs(self, root: Path) -> Iterator[Path]:
        """The golden files of this case under ``root`` (``root/<name>``)."""
        base = root / self.name
        if self.openapi:
            yield base / "tools.yaml"
        for kind in KINDS:
            for path in sorted((base / kind).rglob("*")):
                if path.is_file() and path.name != MARKER and "__pycache__" not in path.parts:
                    yield path


CASES = (
    Case("weather", REPO / "examples" / "weather" / "tools.yaml"),
    Case("conformance", REPO / "examples" / "conformance" / "tools.yaml"),
    Case("everything", GOLDEN / "everything" / "tools.yaml"),
    Case("shop", GOLDEN / "shop" / "openapi.json", openapi=True),
    Case("hostile", GOLDEN / "hostile" / "tools.yaml"),
)


def package(case: Case, kind: str) -> str:
    return f"{case.name}_{kind}"


def mcpgen_cmd() -> list[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]


class GenerationFailed(RuntimeError):
    pass


def _mcpgen(args: list[str], cwd: Path, hash_seed: str) -> None:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    proc = subprocess.run(
        [*mcpgen_cmd(), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )
    if proc.returncode != 0:
        raise GenerationFailed(f"mcpgen {' '.join(args)} (exit {proc.returncode}):\n{proc.stderr}")


def generate_case(case: Case, root: Path, hash_seed: str = "0") -> None:
    """Write ``root/<name>/`` as the commands write it into a new directory."""
    base = root / case.name
    base.mkdir(parents=True)
    manifest = case.manifest
    if case.openapi:
        # relative, so the imported manifest's first line names the document, not a path
        manifest = base / "tools.yaml"
        _mcpgen(
            ["import", "openapi", case.manifest.name, "--output", str(manifest)],
            case.manifest.parent,
            hash_seed,
        )
    for kind in KINDS:
        out = base / kind
        _mcpgen(
            [kind, str(manifest), "--out", str(out), "--package", package(case, kind)],
            base,
            hash_seed,
        )


def generate_all(root: Path, hash_seed: str = "0") -> None:
    """Every case into ``root`` (two at a time: each command is its own process)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        for done in [pool.submit(generate_case, c, root, hash_seed) for c in CASES]:
            done.result()


def read_tree(case: Case, root: Path) -> dict[str, bytes]:
    """``{path relative to root/<name>: bytes}`` of the case's golden files under ``root``."""
    base = root / case.name
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in case.outputs(root)}


def write_golden() -> None:
    """Rewrite ``tests/golden/<name>/`` of every case (not the two older golden trees)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        generate_all(fresh)
        for case in CASES:
            for kind in KINDS:
                shutil.rmtree(GOLDEN / case.name / kind, ignore_errors=True)
            for rel, data in read_tree(case, fresh).items():
                target = GOLDEN / case.name / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
    print(f"wrote {GOLDEN}/<{'|'.join(c.name for c in CASES)}>")


def main() -> None:
    from tests.client import regen_golden as client_golden
    from tests.server import regen_golden as server_golden

    write_golden()
    server_golden.main()
    client_golden.main()


if __name__ == "__main__":
    main()
