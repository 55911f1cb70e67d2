"""Rewrite the golden files: ``python -m tests.client.regen_golden``.

The golden tree is the weather example generated as client package ``weather_client``
(``tests/client/golden/weather_client/``: the ``_generated`` files plus ``__init__.py`` as
first created). Review the diff before committing it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mcpgen.client.build import render_client
from tests.client.helpers import WEATHER

GOLDEN = Path(__file__).resolve().parent / "golden" / "weather_client"


def golden_files() -> dict[str, str]:
    files = render_client(WEATHER, "weather_client")
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
