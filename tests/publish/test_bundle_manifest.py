"""The pure parts of ``mcpgen bundle``: manifest.json from a tool manifest (user_config for the
credentials a forwarding server reads, passed through mcp_config.env) and the deterministic
zip. Fast: no bundle is built, nothing is started."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from mcpgen.manifest.load import load_manifest, usable
from mcpgen.publish.bundle import bundle_files, bundle_manifest
from mcpgen.publish.vendor import PlatformFacts
from mcpgen.publish.zipdet import zip_bytes

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "tests" / "golden" / "shop" / "tools.yaml"
WEATHER = REPO / "examples" / "weather" / "tools.yaml"
LINUX = PlatformFacts("linux", "3.11", True)


def _load(path: Path):  # type: ignore[no-untyped-def]
    return usable(load_manifest(path), path)


def test_user_config_for_forwarding_credentials() -> None:
    doc = bundle_manifest(_load(SHOP), "shop_server", LINUX)
    cfg = doc["user_config"]
    assert cfg["http_auth_apikeyheader"]["sensitive"] is True
    assert cfg["http_auth_apikeyheader"]["type"] == "string"
    assert cfg["api_base_url"]["required"] is True  # the manifest gives no baseUrl
    env = doc["server"]["mcp_config"]["env"]
    assert env["MCPGEN_HTTP_AUTH_APIKEYHEADER"] == "${user_config.http_auth_apikeyheader}"
    assert env["MCPGEN_HTTP_BASE_URL"] == "${user_config.api_base_url}"


def test_no_user_config_without_an_http_api() -> None:
    doc = bundle_manifest(_load(WEATHER), "weather_server", LINUX)
    assert "user_config" not in doc
    assert set(doc["server"]["mcp_config"]["env"]) == {"PYTHONPATH"}
    assert doc["compatibility"] == {
        "runtimes": {"python": ">=3.11,<3.12"},
        "platforms": ["linux"],
    }


def test_zip_is_deterministic_and_sorted() -> None:
    files = bundle_files(
        _load(WEATHER),
        "weather_server",
        {"__main__.py": b"print(1)\n", "__init__.py": b""},
        {"z/mod.py": b"x = 1\n", "a.py": b""},
        LINUX,
    )
    one, two = zip_bytes(files), zip_bytes(dict(reversed(list(files.items()))))
    assert one == two
    with zipfile.ZipFile(io.BytesIO(one)) as zf:
        infos = zf.infolist()
    assert [i.filename for i in infos] == sorted(files)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos} == {0o100644}
    assert "server/main.py" in files and "server/lib/z/mod.py" in files
