"""``mcpgen pull`` of a server with skills (the weather example, spawned over stdio): on the
handshake wire and on 2026-07-28 (``auto``: ``server/discover`` declares the extension) the
skill becomes a folder beside the pulled manifest, byte for byte, named by a ``skills:`` entry,
and its files are not also declared as resources; the pulled manifest generates a server whose
``skills/list`` entry is the original's. A folder that already holds other files is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.client.pull_skills import PulledSkill, _safe_path, write_skill_folders
from mcpgen.errors import McpgenError
from tests.runtime.lean.driver import request, transcript

ROOT = Path(__file__).resolve().parents[2]
WEATHER = ROOT / "examples" / "weather"
SKILL = WEATHER / "skills" / "reading-forecasts"


def _mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, cwd=cwd, timeout=180
    )


def _listed(package_dir: Path, package: str) -> list[dict[str, object]]:
    (answer,) = transcript(package_dir, package, "lean", [request(1, "skills/list", {}, True)])
    skills: list[dict[str, object]] = answer["result"]["skills"]
    return skills


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_pull_writes_the_skill_folders_and_they_serve_the_same_skill(
    tmp_path: Path, mode: str
) -> None:
    cmd = f"{sys.executable} -m weather_server"
    env_cmd = ["env", f"PYTHONPATH={WEATHER}", *cmd.split()]
    pulled = _mcpgen(
        "pull", "--stdio", " ".join(env_cmd), "--mode", mode, "-o", "tools.yaml", cwd=tmp_path
    )
    assert pulled.returncode == 0, pulled.stderr
    text = (tmp_path / "tools.yaml").read_text()
    assert "1 skill)" in text.splitlines()[0]
    assert "skills:\n- path: skills/reading-forecasts\n" in text
    assert "skill://" not in text  # the files are the skill's, not resources
    for f in SKILL.rglob("*"):
        if f.is_file():
            rel = f.relative_to(SKILL)
            assert (tmp_path / "skills" / "reading-forecasts" / rel).read_bytes() == f.read_bytes()

    made = _mcpgen("server", "tools.yaml", "--out", ".", "--package", "again", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert _listed(tmp_path, "again") == _listed(WEATHER, "weather_server")


def test_unsafe_paths_are_never_written() -> None:
    assert _safe_path("references/units.md")
    for bad in ("../x", "a/../../x", "/etc/passwd", ".hidden", "a//b", "a\\b", "a/./b", ""):
        assert not _safe_path(bad), bad


def test_an_existing_folder_with_other_files_is_refused(tmp_path: Path) -> None:
    skill = PulledSkill("pdf", (("SKILL.md", b"---\nname: pdf\ndescription: d\n---\n"),))
    manifest = tmp_path / "tools.yaml"
    assert write_skill_folders([skill], manifest) == ["skills/pdf"]
    assert write_skill_folders([skill], manifest) == ["skills/pdf"]  # a re-pull
    (tmp_path / "skills" / "pdf" / "notes.md").write_text("mine\n")
    with pytest.raises(McpgenError, match="holds notes.md"):
        write_skill_folders([skill], manifest)
    assert (
        json.loads(json.dumps((tmp_path / "skills" / "pdf" / "notes.md").read_text())) == "mine\n"
    )


def _weather_without(tmp_path: Path, drop: str) -> Path:
    """A copy of the weather example, regenerated without ``drop`` (a file of the skill, or the
    whole ``skills:`` section when it is ``"skills:"``)."""
    copy = tmp_path / "live"
    subprocess.run(["cp", "-r", str(WEATHER), str(copy)], check=True)
    if drop == "skills:":
        text = (copy / "tools.yaml").read_text()
        start = text.index("\nskills:\n")
        end = text.index("\n\n", start + 1)
        (copy / "tools.yaml").write_text(text[:start] + text[end:])
    else:
        (copy / "skills" / "reading-forecasts" / drop).unlink()
    made = _mcpgen("server", "tools.yaml", "--out", ".", "--package", "weather_server", cwd=copy)
    assert made.returncode == 0, made.stderr
    return copy


@pytest.mark.parametrize(
    ("drop", "finding"),
    [
        (None, None),
        ("references/units.md", "SKILL_FILE_NO_DELETE"),
        ("skills:", "SKILL_NO_DELETE"),
    ],
)
def test_drift_compares_the_live_skills(
    tmp_path: Path, drop: str | None, finding: str | None
) -> None:
    """``mcpgen drift`` reads the live server's skills (verified, as ``pull`` does) and pairs
    them with the manifest's: a skill or a skill file the server no longer serves is breaking."""
    live = WEATHER if drop is None else _weather_without(tmp_path, drop)
    cmd = f"env PYTHONPATH={live} {sys.executable} -m weather_server"
    # a cwd without a weather_server package: `python -m` puts the cwd first on sys.path
    done = _mcpgen("drift", str(WEATHER / "tools.yaml"), "--stdio", cmd, cwd=tmp_path)
    if finding is None:
        assert done.returncode == 0, done.stderr
        assert "1 live skills" in done.stderr
    else:
        assert done.returncode == 1, done.stderr
        (line,) = [x for x in done.stdout.splitlines() if finding in x]
        assert line.startswith(f"{WEATHER / 'tools.yaml'}:"), line
