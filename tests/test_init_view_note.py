"""``mcpgen init DIR --view`` on a project whose manifest was there before (issue 50): the view
is added but nothing connects it, so init says what to add to the manifest."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.cli import main


def test_view_on_an_existing_project_says_what_to_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "demo"
    with pytest.raises(SystemExit) as exc:
        main(["init", str(project), "--no-wheels"])
    assert exc.value.code == 0
    before = (project / "tools.yaml").read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["init", str(project), "--no-wheels", "--view"])
    assert exc.value.code == 0
    err = capsys.readouterr().err
    assert (project / "tools.yaml").read_text() == before  # never overwritten
    assert (project / "view").is_dir()
    assert "nothing uses the view" in err
    assert '_meta: {ui: {resourceUri: "ui://demo_server/greeting"}}' in err
    assert "file: view/dist" in err
