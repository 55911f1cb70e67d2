"""Generated client packages are stable under their own pinned formatter (``ruff format``,
``mcpgen.format``): formatting them again changes nothing."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from mcpgen.client.build import render_client
from tests.client.helpers import WEATHER
from tests.server.test_ruff_stable import reformat

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = {
    "weather": WEATHER,
    "edge": REPO / "tests" / "client" / "data" / "edge_schemas.json",
    # real servers' tool lists (long string defaults in signatures, long descriptions)
    **{
        p.stem.split("@")[0]: p
        for p in sorted((REPO / "tests" / "check" / "data" / "real_servers").glob("*.json"))
    },
}


@pytest.mark.parametrize("name", sorted(MANIFESTS))
def test_client_packages_are_black_clean(name: str) -> None:
    rendered = render_client(MANIFESTS[name], "pkg_client")
    files = {f"_generated/{k}": v for k, v in rendered.owned.items()}
    files.update(rendered.user)
    problems = []
    for rel, text in sorted(files.items()):
        if not rel.endswith(".py"):
            continue
        formatted = reformat(text)
        if formatted != text:
            problems.append(
                "\n".join(
                    difflib.unified_diff(
                        text.splitlines(),
                        formatted.splitlines(),
                        rel,
                        f"{rel} (black)",
                        lineterm="",
                        n=1,
                    )
                )
            )
    assert not problems, "\n\n".join(problems)
