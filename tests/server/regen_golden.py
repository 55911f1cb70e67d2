"""Rewrite the golden files: ``python -m tests.server.regen_golden``.

The golden package is the weather example generated as package ``weather_server``:

* its ``_generated/`` files are the example's own, committed in
  ``examples/weather/weather_server/_generated/`` (one copy: the example users read is the one
  the tests hold to; CI also runs ``mcpgen server --check`` on it);
* the user files as first created (the example's are filled in) live in
  ``tests/server/golden/weather_server/``.

Review the diff before committing it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mcpgen.server.build import build_server_package
from tests.server.helpers import REPO, WEATHER, render_package

GOLDEN = Path(__file__).resolve().parent / "golden" / "weather_server"
EXAMPLE = REPO / "examples" / "weather"
GENERATED = EXAMPLE / "weather_server" / "_generated"


def golden_files() -> dict[str, str]:
    """What generation produces: ``_generated/<file>`` and the user files."""
    files = render_package(WEATHER, "weather_server")
    out = {  # package data (bytes: ``file:`` resources, skill files) compared as text
        f"_generated/{k}": v if isinstance(v, str) else v.decode("utf-8", "surrogateescape")
        for k, v in files.owned.items()
    }
    out.update(files.user)
    return out


def on_disk_files() -> dict[str, str]:
    """The committed golden: the example's ``_generated/`` plus the golden user files."""
    out = {
        f"_generated/{p.relative_to(GENERATED).as_posix()}": p.read_bytes().decode(
            "utf-8", "surrogateescape"
        )
        for p in GENERATED.rglob("*")
        if p.is_file() and p.name != ".mcpgen.json" and "__pycache__" not in p.parts
    }
    out.update(
        (p.relative_to(GOLDEN).as_posix(), p.read_text(encoding="utf-8"))
        for p in GOLDEN.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    return out


def main() -> None:
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel, text in sorted(golden_files().items()):
        if rel.startswith("_generated/"):
            continue
        target = GOLDEN / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    build_server_package(WEATHER, EXAMPLE, "weather_server", check=False)
    print(f"wrote {GOLDEN} and {GENERATED}")


if __name__ == "__main__":
    main()
