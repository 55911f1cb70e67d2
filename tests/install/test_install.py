"""``mcpgen install CLIENT``: real, pre-populated configuration files of each client under a
temporary HOME; the command line run as a user runs it; the written entry started for real."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"

# What users already have: another server, and comments where the client's own files allow
# them (VS Code's mcp.json, Gemini CLI's settings.json).
EXISTING: dict[str, tuple[str, str]] = {
    "claude-desktop": (
        ".config/Claude/claude_desktop_config.json",
        '{\n  "mcpServers": {\n    "time": {\n      "command": "uvx",\n'
        '      "args": ["mcp-server-time"]\n    }\n  },\n  "globalShortcut": "Ctrl+Space"\n}\n',
    ),
    "claude-code": (
        "proj/.mcp.json",
        '{"mcpServers": {"time": {"type": "stdio", "command": "uvx", '
        '"args": ["mcp-server-time"]}}}',
    ),
    "cursor": (
        ".cursor/mcp.json",
        '{\n    "mcpServers": {\n        "remote": {"url": "https://mcp.example.com/mcp"}\n'
        "    }\n}\n",
    ),
    "vscode": (
        "proj/.vscode/mcp.json",
        '// workspace servers\n{\n  "inputs": [],\n  "servers": {\n'
        '    /* the clock */\n    "time": {"type": "stdio", "command": "uvx",'
        ' "args": ["mcp-server-time"]}, // keep me\n  },\n}\n',
    ),
    "gemini-cli": (
        ".gemini/settings.json",
        '{\n  "theme": "GitHub",\n  // tools\n  "mcpServers": {}\n}\n',
    ),
    "mcp-json": ("proj/mcp.json", ""),
}


def _mcpgen() -> list[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]


def _mcpgen_python() -> str:
    """The Python that runs ``_mcpgen()``: the console script's own (its ``#!`` line, e.g.
    ``.venv/bin/python3``), which is not this process's ``sys.executable`` when pytest was
    started as ``.venv/bin/python -m pytest``."""
    cmd = _mcpgen()
    if len(cmd) > 1:
        return cmd[0]
    first = Path(cmd[0]).read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("#!").strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder with the weather server generated into it."""
    root = tmp_path_factory.mktemp("install")
    proj = root / "proj"
    proj.mkdir()
    shutil.copy(WEATHER / "tools.yaml", proj / "tools.yaml")
    for folder in ("skills", "view"):  # the example's skill and view, beside it
        if (WEATHER / folder).exists():
            shutil.copytree(WEATHER / folder, proj / folder)
    shutil.copytree(WEATHER / "weather_server", proj / "weather_server")
    return proj


def run(
    home: Path, cwd: Path, *args: str, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "APPDATA")}
    env["HOME"] = str(home)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [*_mcpgen(), "install", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _home(tmp_path: Path, project: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    proj = home / "proj"
    shutil.copytree(project, proj)
    return home, proj


def _plain(text: str) -> Any:
    import json5  # json-five: the same JSONC reader mcpgen uses (comments, trailing commas)

    return json5.loads(text)


@pytest.mark.parametrize("client", sorted(EXISTING))
def test_install_keeps_everything_else(tmp_path: Path, project: Path, client: str) -> None:
    home, proj = _home(tmp_path, project)
    rel, before = EXISTING[client]
    cfg = home / rel
    cfg.parent.mkdir(parents=True, exist_ok=True)
    if before:
        cfg.write_text(before)
    args = [client, "tools.yaml", "--out", ".", "--package", "weather_server"]
    first = run(home, proj, *args)
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    after = cfg.read_text()
    doc = _plain(after)
    servers = doc["servers"] if client == "vscode" else doc["mcpServers"]
    entry = servers["weather"]
    assert entry["args"] == ["-m", "weather_server"]
    assert entry["env"] == {"PYTHONPATH": str(proj)}
    assert Path(entry["command"]).name.startswith("python")
    if client in ("vscode", "claude-code"):
        assert entry["type"] == "stdio"
    # every other byte is where it was: the old text minus its tail is a prefix of the new one
    if before:
        for piece in ("mcp-server-time", "// keep me", "/* the clock */", "globalShortcut"):
            if piece in before:
                assert piece in after
        old = _plain(before)
        old_servers = old.get("servers", old.get("mcpServers", {}))
        for name, value in old_servers.items():
            assert servers[name] == value
        assert Path(str(cfg) + ".bak").read_text() == before
    if client not in ("vscode", "gemini-cli"):
        json.loads(after)  # strict JSON stays strict JSON
    # once more: nothing to do, nothing written
    mtime = cfg.stat().st_mtime_ns
    again = run(home, proj, *args)
    assert again.returncode == 0 and "already in" in again.stderr
    assert cfg.stat().st_mtime_ns == mtime


def test_the_written_entry_starts_the_server(tmp_path: Path, project: Path) -> None:
    from mcp import Client, StdioServerParameters

    home, proj = _home(tmp_path, project)
    done = run(home, proj, "vscode", "tools.yaml", "--out", ".", "--package", "weather_server")
    assert done.returncode == 0, done.stderr
    entry = _plain((proj / ".vscode" / "mcp.json").read_text())["servers"]["weather"]

    async def go() -> list[str]:
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry.get("env"), cwd=str(home)
        )
        async with Client(params, mode="legacy") as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert anyio.run(go)[0] == "get_weather"


def test_remote_servers(tmp_path: Path, project: Path) -> None:
    home, proj = _home(tmp_path, project)
    url = "https://weather.example.com/mcp"
    for client, rel, expected in (
        ("gemini-cli", ".gemini/settings.json", {"httpUrl": url}),
        ("cursor", ".cursor/mcp.json", {"url": url}),
        ("claude-code", "proj/.mcp.json", {"type": "http", "url": url}),
    ):
        done = run(home, proj, client, "tools.yaml", "--url", url, "--name", "weather-remote")
        assert done.returncode == 0, done.stderr
        servers = _plain((home / rel).read_text())["mcpServers"]
        assert servers == {"weather-remote": expected}, client
    refused = run(home, proj, "claude-desktop", "tools.yaml", "--url", url)
    assert refused.returncode == 2 and "connectors" in refused.stderr.lower()


def test_a_different_entry_of_the_same_name_needs_force(tmp_path: Path, project: Path) -> None:
    home, proj = _home(tmp_path, project)
    cfg = home / ".cursor" / "mcp.json"
    cfg.parent.mkdir(parents=True)
    theirs = '{"mcpServers": {"weather": {"command": "their-weather"}}}\n'
    cfg.write_text(theirs)
    args = ["cursor", "tools.yaml", "--out", ".", "--package", "weather_server"]
    refused = run(home, proj, *args)
    assert refused.returncode == 2
    assert "already has a different entry named 'weather'" in refused.stderr
    assert cfg.read_text() == theirs
    dry = run(home, proj, *args, "--force", "--dry-run")
    assert dry.returncode == 0 and "-" in dry.stdout and "+" in dry.stdout
    assert '-    "weather": {' not in dry.stdout or "their-weather" in dry.stdout
    assert cfg.read_text() == theirs  # a dry run writes nothing
    forced = run(home, proj, *args, "--force")
    assert forced.returncode == 0 and "replaced 'weather'" in forced.stderr
    assert _plain(cfg.read_text())["mcpServers"]["weather"]["args"] == ["-m", "weather_server"]
    assert Path(str(cfg) + ".bak").read_text() == theirs


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"mcpServers": {"time": {"command": "uvx",}}', ":1:"),
        ('{\n  "mcpServers": {\n    "a": 1\n    "b": 2\n  }\n}\n', ":4:5:"),
        ("[1, 2]", ":1:1:"),
        ('{"mcpServers": ["not", "an", "object"]}', ":1:16:"),
    ],
)
def test_bad_files_get_one_located_line(
    tmp_path: Path, project: Path, text: str, where: str
) -> None:
    home, proj = _home(tmp_path, project)
    cfg = home / ".cursor" / "mcp.json"
    cfg.parent.mkdir(parents=True)
    cfg.write_text(text)
    done = run(home, proj, "cursor", "tools.yaml", "--out", ".", "--package", "weather_server")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert f"{cfg}{where}" in line, line
    assert cfg.read_text() == text
    assert not Path(str(cfg) + ".bak").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder(tmp_path: Path, project: Path) -> None:  # pragma: no cover
    home, proj = _home(tmp_path, project)
    folder = home / ".cursor"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        done = run(home, proj, "cursor", "tools.yaml", "--out", ".", "--package", "weather_server")
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and "cannot write" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_read_only_file_system(tmp_path: Path, project: Path) -> None:
    """As root (CI), permissions do not stop a write: a path under a regular file does."""
    home, proj = _home(tmp_path, project)
    (home / ".cursor").write_text("a file where a folder belongs")
    done = run(home, proj, "cursor", "tools.yaml", "--out", ".", "--package", "weather_server")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot" in done.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "tools.yaml"], "'nope' is not one of"),
        (["cursor", "tools.yaml"], "give the generated package"),
        (["cursor", "tools.yaml", "--out", ".", "--package", "nothing_here"], "run mcpgen server"),
        (["cursor", "tools.yaml", "--url", "ftp://x"], "http:// or https://"),
        (["cursor", "missing.yaml", "--url", "https://x"], "missing.yaml: no such file"),
        (
            ["claude-desktop", "tools.yaml", "--scope", "project", "--out", ".", "--package"]
            + ["weather_server"],
            "has only a user-level file",
        ),
        (
            ["cursor", "tools.yaml", "--out", ".", "--package", "weather_server", "--env", "X"],
            "NAME=VALUE",
        ),
    ],
)
def test_bad_usage(tmp_path: Path, project: Path, args: list[str], message: str) -> None:
    home, proj = _home(tmp_path, project)
    done = run(home, proj, *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (home / ".cursor").exists()


def test_the_next_step_mcpgen_server_prints_works_as_printed(tmp_path: Path) -> None:
    """`mcpgen server` prints an `mcpgen install ...` line for a new package: run it as printed."""
    import shlex

    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(WEATHER / "tools.yaml", work / "tools.yaml")
    for folder in ("skills", "view"):  # the example's skill and view, beside it
        if (WEATHER / folder).exists():
            shutil.copytree(WEATHER / folder, work / folder)
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    made = subprocess.run(
        [*_mcpgen(), "server", "tools.yaml", "--out", "build", "--package", "wx"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    (line,) = [
        x.strip() for x in made.stderr.splitlines() if x.strip().startswith("mcpgen install ")
    ]
    argv = shlex.split(line)
    done = subprocess.run(
        [*_mcpgen(), *argv[1:]], cwd=work, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    entry = _plain((work / ".vscode" / "mcp.json").read_text())["servers"]["weather"]
    assert entry["args"] == ["-m", "wx"] and entry["env"] == {"PYTHONPATH": str(work / "build")}


def test_a_project_without_a_console_script_runs_in_its_own_environment(
    tmp_path: Path, project: Path
) -> None:
    """pyproject.toml without a script for the package: the project's .venv Python if there is
    one, else uv when it is on PATH, else mcpgen's own Python, and the user is told."""
    home, proj = _home(tmp_path, project)
    (proj / "pyproject.toml").write_text('[project]\nname = "proj"\nversion = "1.0.0"\n')
    cfg = proj / ".vscode" / "mcp.json"
    args = ["vscode", "tools.yaml", "--out", ".", "--package", "weather_server", "--force"]

    def entry() -> Any:
        return _plain(cfg.read_text())["servers"]["weather"]

    # no .venv, no uv: this Python, and a note saying why
    p = run(home, proj, *args, path="/usr/bin:/bin")
    assert p.returncode == 0, p.stderr
    assert entry()["command"] == _mcpgen_python()
    assert entry()["env"] == {"PYTHONPATH": str(proj)}
    assert "has no .venv and uv is not on PATH: this runs it with mcpgen's own Python" in p.stderr
    # uv on PATH: uv runs it in the project (its directory is the package's parent)
    uv = shutil.which("uv")
    if uv is not None:
        p = run(home, proj, *args, path=f"{Path(uv).parent}:/usr/bin:/bin")
        assert p.returncode == 0, p.stderr
        assert entry()["command"] == "uv"
        assert entry()["args"] == [
            "run",
            "--directory",
            str(proj),
            "python",
            "-m",
            "weather_server",
        ]
    # the project's own virtual environment wins over both
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(proj / ".venv")], check=True)
    p = run(home, proj, *args, path="/usr/bin:/bin")
    assert p.returncode == 0, p.stderr
    assert entry()["command"] == str(proj / ".venv" / "bin" / "python")
    assert entry()["args"] == ["-m", "weather_server"]
    assert entry()["env"] == {"PYTHONPATH": str(proj)}
    assert "note:" not in p.stderr


# ------------------------------------------------------------ comments and symlinks (issue 41)

CURSOR_WEATHER = "weather_server"


def _cursor(home: Path, proj: Path) -> subprocess.CompletedProcess[str]:
    return run(home, proj, "cursor", "tools.yaml", "--out", ".", "--package", CURSOR_WEATHER)


@pytest.mark.parametrize(
    "last",
    [
        '    "other": {"command": "uvx", "args": ["other"]}, // keep me\n',
        '    "other": {"command": "uvx", "args": ["other"]} // keep me\n',
        '    "other": {"command": "uvx", "args": ["other"]} /* keep me */ , // and me\n',
    ],
)
def test_a_trailing_comment_stays_with_its_entry(tmp_path: Path, project: Path, last: str) -> None:
    """Cursor's mcp.json with `"other": {...}, // keep me`: the comment stays on other's line,
    the new entry goes after it, and every byte before it is unchanged."""
    home, proj = _home(tmp_path, project)
    cfg = home / ".cursor" / "mcp.json"
    cfg.parent.mkdir(parents=True)
    before = '{\n  "mcpServers": {\n' + last + "  }\n}\n"
    cfg.write_text(before)
    done = _cursor(home, proj)
    assert done.returncode == 0, done.stderr
    after = cfg.read_text()
    other_line = last.rstrip("\n")
    if "," not in last.split("}", 2)[-1]:  # no comma after other: one is added after its value
        value_end = last.index("}") + 1
        other_line = last[:value_end] + "," + last[value_end:].rstrip("\n")
    lines = after.splitlines()
    assert lines[2] == other_line, after
    assert lines[3].startswith('    "weather": {'), after
    assert after.startswith('{\n  "mcpServers": {\n'), after
    assert _plain(after)["mcpServers"]["other"] == {"command": "uvx", "args": ["other"]}
    assert "weather" in _plain(after)["mcpServers"]


def _dotfiles(tmp_path: Path, project: Path) -> tuple[Path, Path, Path, Path]:
    """HOME with ~/.cursor/mcp.json a symlink into a dotfiles checkout (relative, as stow
    makes them)."""
    home, proj = _home(tmp_path, project)
    target = home / "dotfiles" / "cursor" / "mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text('{\n  "mcpServers": {\n    "other": {"command": "uvx"} // mine\n  }\n}\n')
    link = home / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(Path("..") / "dotfiles" / "cursor" / "mcp.json")
    return home, proj, link, target


def test_a_symlinked_config_is_edited_through_the_link(tmp_path: Path, project: Path) -> None:
    home, proj, link, target = _dotfiles(tmp_path, project)
    before = target.read_text()
    done = _cursor(home, proj)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink(), "the link was replaced by a regular file"
    assert os.readlink(link) == str(Path("..") / "dotfiles" / "cursor" / "mcp.json")
    doc = _plain(target.read_text())
    assert set(doc["mcpServers"]) == {"other", "weather"}
    assert "// mine" in target.read_text()
    assert "is a symlink: its target" in done.stderr and str(target) in done.stderr
    # the backup sits beside the link, not in the dotfiles checkout
    assert Path(str(link) + ".bak").read_text() == before
    assert sorted(p.name for p in target.parent.iterdir()) == ["mcp.json"]
    again = _cursor(home, proj)
    assert again.returncode == 0 and "already in" in again.stderr


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_a_symlink_that_leads_nowhere_is_refused(tmp_path: Path, project: Path, kind: str) -> None:
    home, proj = _home(tmp_path, project)
    link = home / ".cursor" / "mcp.json"
    link.parent.mkdir()
    if kind == "dangling":
        link.symlink_to(home / "dotfiles" / "missing.json")
    else:
        link.symlink_to(link.with_name("other.json"))
        link.with_name("other.json").symlink_to(link)
    done = _cursor(home, proj)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert f"{link}: is a symlink to" in last, last
    assert ("does not exist" if kind == "dangling" else "a loop of links") in last, last
    assert link.is_symlink()
    assert sorted(p.name for p in link.parent.iterdir()) == sorted(
        ["mcp.json"] + (["other.json"] if kind == "loop" else [])
    )
    assert not (home / "dotfiles").exists()
