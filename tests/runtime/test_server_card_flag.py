"""``--server-card`` on a generated server (issue 50): a missing or malformed FILE, or a card the
schema refuses, stops the start with one line and exit 2 before anything is served (it was a
traceback after the "serving" line, or the bad card was served); on stdio the flag is refused,
not ignored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"


def start(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "weather_server", *args, "--port", "0"],
        capture_output=True,
        text=True,
        cwd=WEATHER,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


GOOD = {
    "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
    "name": "com.example/weather",
    "version": "1.0.0",
    "description": "Weather.",
}


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read"),
        ("{not json", "is not JSON"),
        ("[1, 2]", "is not a Server Card"),
        (json.dumps({**GOOD, "name": "weather"}), "breaks the Server Card schema: name"),
        (json.dumps({**GOOD, "version": "^1.0"}), "breaks the Server Card schema: version"),
    ],
)
def test_a_bad_card_file_stops_the_start(tmp_path: Path, content: str | None, said: str) -> None:
    card = tmp_path / "card.json"
    if content is not None:
        card.write_text(content)
    done = start("--http", "--server-card", str(card))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "serving" not in done.stderr.lower()
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m weather_server: error: --server-card ") and said in last


@pytest.mark.parametrize("extra", [[], ["card.json"]])
def test_on_stdio_the_flag_is_refused(extra: list[str]) -> None:
    done = start("--server-card", *extra)
    assert done.returncode == 2, done.stderr
    assert "--server-card applies to --http" in done.stderr
