"""Rewrite the golden files: ``python -m tests.server.regen_golden``.

The golden tree is the weather example generated as package ``weather_server``
(``tests/server/golden/weather_server/``: the ``_generated`` files plus the user files as
first created). Review the diff before committing it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.server.helpers import WEATHER, render_package

GOLDEN = Path(__file__).resolve().parent / "golden" / "weather_server"


def golden_files() -> dict[str, str]:
    files = render_package(WEATHER, "weather_server")
    out = {f"_generated/{k}": v for k, v in files.owned.items()}
    out.update(files.user)
    return out


def main() -> None:
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel, text in sorted(golden_files().items()):
        target = GOLDEN / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
