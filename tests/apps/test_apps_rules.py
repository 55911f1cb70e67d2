"""MCP Apps' check and breaking rules, through the CLI: one located finding per bad input,
never a traceback, nothing generated on an error."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.inprocess import mcpgen

HTML = b"<!doctype html><html><body><p>card</p></body></html>"


def _manifest(view: str = "", tool_meta: str = "", extra: str = "", csp: str = "") -> str:
    return f"""server: {{name: t}}
tools:
  - name: show
    description: Shows it.
    inputSchema: {{type: object}}
    outputSchema: {{type: object, properties: {{n: {{type: integer}}}}}}
    _meta: {{ui: {{resourceUri: "{tool_meta or "ui://t/card"}"}}}}
resources:
  - uri: ui://t/card
    name: card
    mimeType: {view or "text/html;profile=mcp-app"}
    file: view
    _meta: {{ui: {{permissions: {{camera: {{}}}}, csp: {{connectDomains: [{csp or '"https://api.example.com"'}]}}}}}}
{extra}"""


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=tmp)


def _project(tmp: Path, text: str, html: bytes = HTML) -> Path:
    (tmp / "view").mkdir(exist_ok=True)  # a built folder: its index.html is the view
    (tmp / "view" / "index.html").write_bytes(html)
    (tmp / "tools.yaml").write_text(text)
    return tmp / "tools.yaml"


def test_good_view_checks_clean_and_generates(tmp_path: Path) -> None:
    _project(tmp_path, _manifest())
    proc = _run(tmp_path, "check", "tools.yaml")
    assert proc.returncode == 0 and "APP_" not in proc.stdout, proc.stdout
    gen = _run(tmp_path, "server", "tools.yaml", "--out", ".", "--package", "t_server")
    assert gen.returncode == 0, gen.stderr
    (data,) = (tmp_path / "t_server" / "_generated" / "resources").iterdir()
    assert data.read_bytes() == HTML  # byte for byte


@pytest.mark.parametrize(
    ("kw", "html", "rule", "where", "words"),
    [
        ({"tool_meta": "ui://t/other"}, HTML, "APP_VIEW_MISSING", "7:", "ui://t/other"),
        ({"view": "text/html"}, HTML, "APP_VIEW_MIME", "11:15", "text/html"),
        ({"csp": '"*://api.example.com"'}, HTML, "APP_CSP_DOMAIN", "13:", "wildcard scheme"),
        ({"csp": '"https://*"'}, HTML, "APP_CSP_DOMAIN", "13:", "wildcard host"),
        ({}, b"\xff\xfe<html>", "APP_VIEW_HTML", "12:11", "not UTF-8"),
        ({}, b"just text", "APP_VIEW_HTML", "12:11", "not an HTML document"),
        (
            {"extra": "  - {uri: ui://t/card, name: again, mimeType: text/plain, text: x}\n"},
            HTML,
            "RESOURCE_URI_UNIQUE",
            "14:",
            "used twice",
        ),
    ],
)
def test_bad_input_is_one_located_error(
    tmp_path: Path, kw: dict[str, str], html: bytes, rule: str, where: str, words: str
) -> None:
    _project(tmp_path, _manifest(**kw), html)
    proc = _run(tmp_path, "check", "tools.yaml")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    errors = [line for line in proc.stdout.splitlines() if " error " in line]
    assert len(errors) == 1, proc.stdout
    assert errors[0].startswith(f"tools.yaml:{where}") and rule in errors[0], errors
    assert words in errors[0]
    gen = _run(tmp_path, "server", "tools.yaml", "--out", ".", "--package", "t_server")
    assert gen.returncode == 2 and not (tmp_path / "t_server").exists(), gen.stderr


def test_unused_view_and_text_fallback_warn(tmp_path: Path) -> None:
    text = _manifest().replace(
        "    outputSchema: {type: object, properties: {n: {type: integer}}}\n", ""
    )
    text += (
        "  - {uri: ui://t/spare, name: spare, mimeType: text/html;profile=mcp-app,"
        " text: '<html></html>'}\n"
    )
    _project(tmp_path, text)
    out = _run(tmp_path, "check", "tools.yaml").stdout
    assert "warning APP_TEXT_FALLBACK tool 'show' opens a view but declares no outputSchema" in out
    assert "warning APP_VIEW_UNUSED no tool opens the view 'ui://t/spare'" in out


def test_breaking_views(tmp_path: Path) -> None:
    old = _project(tmp_path, _manifest()).read_text()
    (tmp_path / "old.yaml").write_text(old)
    new = (
        old.replace("permissions: {camera: {}}, ", "")
        .replace('connectDomains: ["https://api.example.com"]', "connectDomains: []")
        .replace(
            '_meta: {ui: {resourceUri: "ui://t/card"}}',
            '_meta: {ui: {resourceUri: "ui://t/card", visibility: [app]}}',
        )
    )
    (tmp_path / "new.yaml").write_text(new)
    out = _run(tmp_path, "breaking", "old.yaml", "new.yaml").stdout
    assert "VIEW_PERMISSION_NO_NARROW view 'ui://t/card': permission 'camera' was removed" in out
    assert "'https://api.example.com' was removed from csp.connectDomains" in out
    assert (
        "TOOL_VISIBILITY_NO_NARROW tool 'show': _meta.ui.visibility no longer includes model" in out
    )
    gone = old.split("resources:")[0].replace('    _meta: {ui: {resourceUri: "ui://t/card"}}\n', "")
    (tmp_path / "gone.yaml").write_text(gone)
    out = _run(tmp_path, "breaking", "old.yaml", "gone.yaml").stdout
    assert "VIEW_NO_DELETE view 'ui://t/card' was removed" in out
    assert (
        "VIEW_NO_DELETE tool 'show' opened the view 'ui://t/card' and no longer opens a view" in out
    )
    assert "RESOURCE_NO_DELETE" not in out  # a view's removal is reported once, as a view
