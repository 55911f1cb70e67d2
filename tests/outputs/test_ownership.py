"""Every writing command over every path it must not replace (issue 50): the manifest, a file
of the user's (``handlers.py``, notes), another command's output, a directory, a symlink to
any of these, a read-only file, a path inside the package being bundled. Each is refused with
exit 2 and one line, and nothing on disk changes; ``--force`` replaces what it may and keeps
the old one as ``.bak``, never the manifest, a directory or a path inside the package.

One project is generated once (a server and a client package, a docs directory, a summary);
each case runs on a copy of it, in-process."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from mcpgen.cli import main
from mcpgen.outputs import BUNDLE_COMMENT, PUBLISHER_META, SERVER_JSON_TOOL
from mcpgen.publish.zipdet import zip_bytes

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ownership")
    for name in ("tools.yaml", "skills", "view"):
        src = WEATHER / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, root / name)
    m = str(root / "tools.yaml")
    for argv in (
        ["server", m, "--out", str(root), "--package", "demo_server"],
        ["client", m, "--out", str(root), "--package", "demo_client"],
        ["docs", m, "--out", str(root / "docs")],
        ["export", "summary", m, "-o", str(root / "summary.json")],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 0, argv
    (root / "notes.txt").write_text("my notes\n")
    (root / "mine").mkdir()
    (root / "mine" / "keep.txt").write_text("a folder of mine\n")
    return root


def snapshot(root: Path) -> dict[str, tuple[str, bytes | str, int]]:
    out: dict[str, tuple[str, bytes | str, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            mode = p.lstat().st_mode
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p), 0)
            elif p.is_dir():
                out[rel] = ("dir", "", stat.S_IMODE(mode))
            else:
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(mode))
    return out


# What each file writer writes (its own output, for the symlink and read-only cases).
OWN: dict[str, bytes] = {
    "bundle": zip_bytes({"manifest.json": b"{}"}, BUNDLE_COMMENT),
    "summary": b'{\n  "format": "mcpgen.capabilities/v1"\n}\n',
    "server-json": json.dumps({"_meta": {PUBLISHER_META: {"tool": SERVER_JSON_TOOL}}}).encode(),
    "server-card": b"",  # written by the real command below
    "import": b"# Imported by `mcpgen import openapi` from api.yaml.\nserver: {}\n",
    "pull": b"# Pulled by `mcpgen pull` from x (protocol 2025-06-18, 0 tools): as sent.\n",
}

FILE_WRITERS: dict[str, Callable[[Path, str], list[str]]] = {
    "bundle": lambda p, o: [
        "bundle", str(p / "tools.yaml"), "--out", str(p), "--package", "demo_server",
        "--no-start-check", "-o", o,
    ],
    "summary": lambda p, o: ["export", "summary", str(p / "tools.yaml"), "-o", o],
    "server-json": lambda p, o: ["export", "server-json", str(p / "tools.yaml"), "-o", o],
    "server-card": lambda p, o: [
        "export", "server-card", str(p / "tools.yaml"), "--name", "com.example/weather", "-o", o,
    ],
    "import": lambda p, o: ["import", "openapi", str(p / "api.yaml"), "-o", o],
    "pull": lambda p, o: ["pull", "--stdio", "python -c pass", "-o", o],
}  # fmt: skip


def _own_file(p: Path, writer: str, capsys: pytest.CaptureFixture[str]) -> Path:
    path = p / f"own-{writer}.out"
    if writer == "server-card":
        code, err = run(capsys, *FILE_WRITERS[writer](p, str(path)))
        assert code == 0, err
    else:
        path.write_bytes(OWN[writer])
    return path


def _link(p: Path, to: Path) -> Path:
    link = p / f"link-to-{to.name}"
    link.symlink_to(to)
    return link


# target -> (prepare it, may --force replace it)
FILE_TARGETS: dict[str, tuple[Callable[..., Path], bool]] = {
    "manifest": (lambda p, w, c: p / "tools.yaml", False),
    "handlers.py": (lambda p, w, c: p / "demo_server" / "handlers.py", True),
    "notes": (lambda p, w, c: p / "notes.txt", True),
    "other generator's output": (
        lambda p, w, c: p / ("docs/index.html" if w == "summary" else "summary.json"),
        True,
    ),
    "server's tree file": (lambda p, w, c: p / "demo_server" / "_generated" / "tools.py", True),
    "directory": (lambda p, w, c: p / "mine", False),
    "symlink to manifest": (lambda p, w, c: _link(p, p / "tools.yaml"), False),
    "symlink to handlers.py": (lambda p, w, c: _link(p, p / "demo_server" / "handlers.py"), True),
    "symlink to own output": (lambda p, w, c: _link(p, _own_file(p, w, c)), True),
    "read-only own output": (lambda p, w, c: _readonly(_own_file(p, w, c)), True),
}


def _readonly(path: Path) -> Path:
    path.chmod(0o444)
    return path


@pytest.mark.parametrize("target", sorted(FILE_TARGETS))
@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_file_writer_refuses(
    writer: str, target: str, project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    prepare, _ = FILE_TARGETS[target]
    out = prepare(p, writer, capsys)
    before = snapshot(p)
    code, err = run(capsys, *FILE_WRITERS[writer](p, str(out)))
    assert code == 2, (writer, target, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcpgen: error: "), err
    assert snapshot(p) == before


def test_bundle_refuses_a_path_inside_the_package(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    before = snapshot(p)
    for force in ((), ("--force",)):
        argv = FILE_WRITERS["bundle"](p, str(p / "demo_server" / "weather.mcpb"))
        code, err = run(capsys, *argv, *force)
        assert code == 2 and "inside the package being bundled" in err, err
        assert len(err.strip().splitlines()) == 1
    assert snapshot(p) == before


@pytest.mark.parametrize("target", sorted(FILE_TARGETS))
def test_force_keeps_a_bak_or_still_refuses(
    target: str, project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--force (export summary, the cheapest writer): what it may replace is kept as .bak."""
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    prepare, forceable = FILE_TARGETS[target]
    out = prepare(p, "summary", capsys)
    before = snapshot(p)
    old = os.readlink(out) if out.is_symlink() else out.read_bytes() if out.is_file() else None
    code, err = run(capsys, *FILE_WRITERS["summary"](p, str(out)), "--force")
    if not forceable:
        assert code == 2, err
        assert snapshot(p) == before
        return
    assert code == 0, err
    bak = out.with_name(out.name + ".bak")
    assert (os.readlink(bak) if bak.is_symlink() else bak.read_bytes()) == old
    assert not out.is_symlink() and b"mcpgen.capabilities/v1" in out.read_bytes()
    # and now it is the command's own: a second run needs no --force
    assert run(capsys, *FILE_WRITERS["summary"](p, str(out)))[0] == 0


# Tree writers: argv for the owned directory at T (the part of the path the command names).
def _package_argv(cmd: str) -> Callable[[Path, Path], list[str]]:
    def argv(p: Path, t: Path) -> list[str]:
        assert t.name == "_generated"
        pkg = t.parent
        return [cmd, str(p / "tools.yaml"), "--out", str(pkg.parent), "--package", pkg.name]

    return argv


TREE_WRITERS: dict[str, Callable[[Path, Path], list[str]]] = {
    "server": _package_argv("server"),
    "client": _package_argv("client"),
    "cli": _package_argv("cli"),
    "docs": lambda p, t: ["docs", str(p / "tools.yaml"), "--out", str(t)],
    "protocol": lambda p, t: ["protocol", "generate", "--out", str(t.parent)],
}


def _tree_path(p: Path, writer: str) -> Path:
    if writer in ("server", "client", "cli"):
        return p / "target_pkg" / "_generated"
    return p / "target" / ("mcp_wire" if writer == "protocol" else "docs")


def _place(p: Path, writer: str, what: Callable[[Path], None]) -> Path:
    t = _tree_path(p, writer)
    t.parent.mkdir(parents=True, exist_ok=True)
    what(t)
    return t


def _other_tree(writer: str) -> Callable[[Path, Path], None]:
    def place(p: Path, t: Path) -> None:
        src = p / ("docs" if writer != "docs" else "demo_server/_generated")
        if writer == "server":
            src = p / "demo_client" / "_generated"
        shutil.copytree(src, t)

    return place


TREE_TARGETS: dict[str, Callable[[Path, str, Path], None]] = {
    "other generator's tree": lambda p, w, t: _other_tree(w)(p, t),
    "manifest (a link to it)": lambda p, w, t: t.symlink_to(p / "tools.yaml"),
    "handlers.py (a copy)": lambda p, w, t: shutil.copyfile(p / "demo_server/handlers.py", t),
    "symlink to handlers.py": lambda p, w, t: t.symlink_to(p / "demo_server/handlers.py"),
    "folder of the user's": lambda p, w, t: shutil.copytree(p / "mine", t),
    "symlink to another tree": lambda p, w, t: t.symlink_to(p / "demo_server" / "_generated"),
    "read-only file": lambda p, w, t: (t.write_text("x\n"), t.chmod(0o444)) and None,
}


@pytest.mark.parametrize("target", sorted(TREE_TARGETS))
@pytest.mark.parametrize("writer", sorted(TREE_WRITERS))
def test_tree_writer_refuses(
    writer: str, target: str, project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    t = _place(p, writer, lambda t: TREE_TARGETS[target](p, writer, t))
    before = snapshot(p)
    code, err = run(capsys, *TREE_WRITERS[writer](p, t))
    assert code == 2, (writer, target, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcpgen: error: "), err
    assert snapshot(p) == before


def test_docs_refuses_the_manifest_folder_even_with_force(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    before = snapshot(p)
    code, err = run(capsys, "docs", str(p / "tools.yaml"), "--out", str(p), "--force")
    assert code == 2 and "holds the manifest" in err, err
    assert snapshot(p) == before


def test_client_over_a_server_tree_with_force_keeps_it_as_bak(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "p"
    shutil.copytree(project, p, symlinks=True)
    server_tree = snapshot(p / "demo_server" / "_generated")
    m = str(p / "tools.yaml")
    code, err = run(capsys, "client", m, "--out", str(p), "--package", "demo_server", "--force")
    assert code == 0, err
    assert snapshot(p / "demo_server" / "_generated.bak") == server_tree
    assert '"writer": "client"' in (p / "demo_server/_generated/.mcpgen.json").read_text()
    # the server's own command now refuses the client's tree
    code, err = run(capsys, "server", m, "--out", str(p), "--package", "demo_server")
    assert code == 2 and "written by mcpgen client" in err, err


def test_legacy_markers_are_read_by_their_files() -> None:
    from mcpgen.outputs import tree_writer

    assert tree_writer({"files": {"README.md": "", "index.html": ""}}) == "docs"
    assert tree_writer({"files": {"server.py": "", "tools.py": ""}}) == "server"
    assert tree_writer({"files": {"cli.py": "", "client.py": ""}}) == "cli"
    assert tree_writer({"files": {"client.py": ""}}) == "client"
    assert tree_writer({"files": {"_base.py": "", "v2025_06_18.py": ""}}) == "protocol"
    assert tree_writer({"writer": "docs", "files": {"server.py": ""}}) == "docs"
