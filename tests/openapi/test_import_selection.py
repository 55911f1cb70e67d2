"""``mcpgen import openapi`` (issue 50): an overlay that gives two operations one name is an
error at the overlay's line (it wrote a manifest with a duplicate tool); a stale overlay key's
warning carries line:col; an ``--include-tags`` name no operation carries is an error (it wrote
0 tools). Exit 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.cli import main

SPEC = """\
openapi: 3.1.0
info: {title: Shop, version: 1.0.0}
paths:
  /items:
    get:
      operationId: listItems
      tags: [items]
      responses: {"200": {description: ok}}
  /orders:
    get:
      operationId: listOrders
      tags: [orders]
      responses: {"200": {description: ok}}
"""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "api.yaml"
    path.write_text(SPEC)
    return path


def test_two_operations_one_name_is_an_error_at_the_overlay_line(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(
        "tools:\n  GET /items:\n    name: list_all\n  GET /orders:\n    name: list_all\n"
    )
    out = tmp_path / "tools.yaml"
    code, err = run(
        capsys, "import", "openapi", str(spec), "-o", str(out), "--overlay", str(overlay)
    )
    assert code == 2, err
    assert f"{overlay}:5:11: " in err and "'list_all'" in err, err
    assert not out.exists()


def test_a_stale_overlay_key_is_warned_at_its_line(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("tools:\n  GET /items: {description: Items.}\n  GET /gone: {remove: true}\n")
    out = tmp_path / "tools.yaml"
    code, err = run(
        capsys, "import", "openapi", str(spec), "-o", str(out), "--overlay", str(overlay)
    )
    assert code == 0, err
    assert f"{overlay}:3:3: warning: no operation GET /gone any more" in err, err


def test_include_tags_that_match_nothing_is_an_error(
    spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tools.yaml"
    code, err = run(
        capsys, "import", "openapi", str(spec), "-o", str(out), "--include-tags", "item"
    )
    assert code == 2, err
    assert "--include-tags item: no operation has this tag (did you mean 'items'?)" in err
    assert "the document's tags: items, orders" in err
    assert not out.exists()
    code, err = run(
        capsys, "import", "openapi", str(spec), "-o", str(out), "--include-tags", "orders"
    )
    assert code == 0 and "1 tools" not in err, err
