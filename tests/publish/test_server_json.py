"""``mcpgen export server-json``: the MCP Registry entry of a server, validated against the
registry's schema (pinned by URL + sha256, read from the local mirror ``../shared/mcp-registry``
or ``$MCPGEN_REGISTRY_SCHEMA_DIR``, else downloaded), and the REGISTRY_VERSION_AGREEMENT rule.

The registry's own example files are the test data for the validator: each valid one passes,
each invalid one is refused with a located error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import inprocess

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather" / "tools.yaml"
SHARED_REGISTRY = REPO.parent / "shared" / "mcp-registry"
VERSION = "2025-12-11"
NAME = "io.github.mcpgen/weather"


def _mirror() -> Path | None:
    env = os.environ.get("MCPGEN_REGISTRY_SCHEMA_DIR")
    for cand in ([Path(env)] if env else []) + [SHARED_REGISTRY]:
        if (cand / VERSION / "server.schema.json").is_file():
            return cand
    return None


@pytest.fixture(scope="module")
def registry_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment the commands run in: the local mirror, else a private cache that the
    first command fills from the pinned URL."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_")}
    mirror = _mirror()
    if mirror is not None:
        env["MCPGEN_REGISTRY_SCHEMA_DIR"] = str(mirror)
    else:  # pragma: no cover - a machine without the mirror (it has the internet)
        env["MCPGEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    return env


@pytest.fixture(autouse=True)
def _in_process_env(registry_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("MCPGEN_REGISTRY_SCHEMA_DIR", "MCPGEN_CACHE_DIR"):
        if key in registry_env:
            monkeypatch.setenv(key, registry_env[key])


@pytest.fixture(scope="module")
def schema(registry_env: dict[str, str]) -> dict[str, Any]:
    from mcpgen.publish.registry_schema import load_registry_schema

    old = dict(os.environ)
    os.environ.update(registry_env)
    try:
        return load_registry_schema()
    finally:
        os.environ.clear()
        os.environ.update(old)


def mcpgen(
    env: dict[str, str], *args: str, cwd: Path, process: bool = False
) -> subprocess.CompletedProcess[str]:
    """``mcpgen *args`` in the environment ``env``: in this process (tests/inprocess.py, with
    exit code and streams as a subprocess gives them), or with ``process`` in its own."""
    if process:
        return inprocess.process(*args, cwd=cwd, env=env)
    return inprocess.mcpgen(*args, cwd=cwd, env=inprocess.environment(env))


PYPROJECT = """\
[project]
name = "weather-server"
version = "1.0.0"
readme = "README.md"
requires-python = ">=3.10"

[project.urls]
Repository = "https://github.com/mcpgen/weather-server.git"

[project.scripts]
weather-server = "weather_server.__main__:main"
"""
README = f"# Weather\n\nAn MCP server.\n\n<!-- mcp-name: {NAME} -->\n"


def _project(root: Path, manifest: str | None = None) -> Path:
    """The weather example as a publishable project: its manifest with a registry name, a
    pyproject.toml and the README PyPI shows."""
    root.mkdir(parents=True, exist_ok=True)
    text = manifest if manifest is not None else WEATHER.read_text(encoding="utf-8")
    text = text.replace("  title: Weather\n", f"  title: Weather\n  registry: {NAME}\n", 1)
    (root / "tools.yaml").write_text(text, encoding="utf-8")
    if not (root / "skills").exists():  # the example's skill folder, beside its manifest
        for folder in ("skills", "view"):  # the example's skill and view, beside it
            if (WEATHER.parent / folder).exists():
                shutil.copytree(WEATHER.parent / folder, root / folder)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "README.md").write_text(README, encoding="utf-8")
    return root


def test_the_weather_example_exported_and_validated(
    tmp_path: Path, registry_env: dict[str, str], schema: dict[str, Any]
) -> None:
    proj = _project(tmp_path / "weather")
    done = mcpgen(
        registry_env,
        "export",
        "server-json",
        "tools.yaml",
        "--remote",
        "https://weather.example.com/mcp",
        "-o",
        "server.json",
        cwd=proj,
        process=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    doc = json.loads((proj / "server.json").read_text(encoding="utf-8"))
    # validated here again, by jsonschema directly against the pinned file
    from jsonschema import Draft7Validator  # type: ignore[import-untyped]

    assert list(Draft7Validator(schema).iter_errors(doc)) == []
    assert (
        doc["$schema"]
        == f"https://static.modelcontextprotocol.io/schemas/{VERSION}/server.schema.json"
    )
    assert doc["name"] == NAME
    assert doc["version"] == "1.0.0"
    assert doc["title"] == "Weather"
    assert doc["description"] == "Current weather and forecasts (demo data, no network)."
    assert doc["repository"] == {
        "url": "https://github.com/mcpgen/weather-server",
        "source": "github",
    }
    (pkg,) = doc["packages"]
    assert pkg["registryType"] == "pypi"
    assert pkg["identifier"] == "weather-server"
    assert pkg["version"] == "1.0.0"
    assert pkg["transport"] == {"type": "stdio"}
    assert pkg["runtimeHint"] == "uvx"
    env = {e["name"]: e for e in pkg["environmentVariables"]}
    assert env["MCPGEN_STATE_URL"]["isSecret"] is True
    assert "current, diagnostics, forecast" in env["MCPGEN_TOOLSETS"]["description"]
    assert doc["remotes"] == [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]
    # and the versions agree, so check says nothing about them
    checked = mcpgen(registry_env, "check", "tools.yaml", "--format", "json", cwd=proj)
    found = json.loads(checked.stdout)["diagnostics"]
    assert not [d for d in found if d["rule_id"] == "REGISTRY_VERSION_AGREEMENT"]
    # byte-stable
    again = mcpgen(registry_env, "export", "server-json", "tools.yaml", cwd=proj)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == {k: v for k, v in doc.items() if k != "remotes"}


HTTP_MANIFEST = """\
server:
  name: api
  version: 2.0.0
  description: Calls the pet store.
  registry: com.example/petstore
  http:
    baseUrl: https://petstore.example.com/v1
    securitySchemes:
      api_key: {type: apiKey, in: header, name: X-Api-Key}
      bearer-auth: {type: http, scheme: bearer}
tools:
  - name: list_pets
    description: List the pets.
    inputSchema: {type: object}
"""


def test_the_environment_a_forwarding_server_reads(tmp_path: Path) -> None:
    from mcpgen.manifest.load import load_manifest
    from mcpgen.publish.server_json import auth_env, environment_variables
    from mcpgen_runtime.server.forward import BASE_URL_ENV
    from mcpgen_runtime.server.forward import auth_env as runtime_auth_env

    path = tmp_path / "api.yaml"
    path.write_text(HTTP_MANIFEST, encoding="utf-8")
    manifest = load_manifest(path).manifest
    assert manifest is not None
    env = {e["name"]: e for e in environment_variables(manifest)}
    for scheme in ("api_key", "bearer-auth"):
        assert auth_env(scheme) == runtime_auth_env(scheme)
        assert env[auth_env(scheme)]["isSecret"] is True
    assert env["MCPGEN_HTTP_AUTH_BEARER_AUTH"]["description"].endswith("a bearer token")
    assert env[BASE_URL_ENV] == {
        "name": BASE_URL_ENV,
        "description": "The URL of the API the tools call (default https://petstore.example.com/v1)",
        "isRequired": False,
        "default": "https://petstore.example.com/v1",
    }
    assert "isSecret" not in env[BASE_URL_ENV]


# ---------------------------------------------------------------- the registry's examples


def _examples(kind: str) -> list[Path]:
    mirror = _mirror() or SHARED_REGISTRY
    return sorted((mirror / VERSION / "examples" / kind).glob("*.json"))


@pytest.mark.parametrize("example", _examples("valid"), ids=lambda p: p.stem)
def test_the_registrys_valid_examples_validate(example: Path) -> None:
    from mcpgen.publish.registry_schema import validate_server_json

    text = example.read_text(encoding="utf-8")
    assert validate_server_json(json.loads(text), text) == []


INVALID = {
    "bad-name-pattern": ("/name", 2, 11, "does not match the pattern"),
    "description-too-long": ("/description", 3, 18, "111 characters; at most 100"),
    "missing-name": ("", 1, 1, "missing the required key `name`"),
    "package-version-latest": ("/packages/0/version", 9, 18, 'not "latest"'),
    "positional-argument-missing-value": (
        "/packages/0/packageArguments/0",
        12,
        9,
        "needs one of the keys `valueHint`, `value`",
    ),
}


@pytest.mark.parametrize("example", _examples("invalid"), ids=lambda p: p.stem)
def test_the_registrys_invalid_examples_are_refused_where_they_are_wrong(example: Path) -> None:
    from mcpgen.publish.registry_schema import validate_server_json

    text = example.read_text(encoding="utf-8")
    (problem,) = validate_server_json(json.loads(text), text)
    pointer, line, col, words = INVALID[example.stem]
    assert (problem.pointer, problem.line, problem.col) == (pointer, line, col)
    assert words in problem.message
    assert problem.where(example.name) == f"{example.name}:{line}:{col}"


# ---------------------------------------------------------------- bad input


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


BAD: dict[str, tuple[str, str, str, str]] = {
    # name: (file, old, new, what the one error line says)
    "registry name without a namespace": (
        "tools.yaml",
        f"registry: {NAME}",
        "registry: weather",
        "tools.yaml:7:13: `server.registry`: the string 'weather' is not of the form",
    ),
    "registry name with two slashes": (
        "tools.yaml",
        f"registry: {NAME}",
        "registry: io.github.mcpgen/weather/x",
        "tools.yaml:7:13: `server.registry`",
    ),
    "description over 100 characters": (
        "tools.yaml",
        "  description: Current weather and forecasts (demo data, no network).",
        "  description: " + "Current weather, " * 7,
        "tools.yaml:8:16: server.description is 118 characters; the registry allows at most 100",
    ),
    "manifest version latest": (
        "tools.yaml",
        "  version: 1.0.0",
        "  version: latest",
        "tools.yaml:5:12: server.version 'latest' is not one specific version",
    ),
    "pyproject version range": (
        "pyproject.toml",
        'version = "1.0.0"',
        'version = "^1.0.0"',
        "pyproject.toml:3:1: [project].version '^1.0.0' is not one specific version",
    ),
    "pyproject version 1.x": (
        "pyproject.toml",
        'version = "1.0.0"',
        'version = "1.x"',
        "pyproject.toml:3:1: [project].version '1.x' is not one specific version",
    ),
    "versions disagree": (
        "pyproject.toml",
        'version = "1.0.0"',
        'version = "1.0.1"',
        "tools.yaml:5:12: server.version is '1.0.0' but pyproject.toml says '1.0.1'",
    ),
    "README without the marker": (
        "README.md",
        f"<!-- mcp-name: {NAME} -->",
        "<!-- mcp-name: io.github.someone/else -->",
        f"README.md:1:1: the README PyPI shows does not contain `mcp-name: {NAME}`",
    ),
    "no readme at all": (
        "pyproject.toml",
        'readme = "README.md"\n',
        "",
        "pyproject.toml:1:1: [project] has no readme, so PyPI shows none",
    ),
    "pyproject without a version": (
        "pyproject.toml",
        'version = "1.0.0"\n',
        "",
        "pyproject.toml:1:1: [project] has no version",
    ),
    "pyproject with a dynamic version": (
        "pyproject.toml",
        'version = "1.0.0"',
        'dynamic = ["version"]',
        "pyproject.toml:1:1: [project] has no version ([project].dynamic lists it",
    ),
    "no registry name": (
        "tools.yaml",
        f"  registry: {NAME}\n",
        "",
        "tools.yaml:4:3: server.registry is not set",
    ),
}


def _one_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("mcpgen: error:")]
    assert len(errors) == 1, done.stderr
    assert done.stderr.strip().splitlines() == errors, "one line, nothing else"
    return errors[0]


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_clear_message_and_writes_nothing(
    tmp_path: Path, registry_env: dict[str, str], case: str
) -> None:
    proj = _project(tmp_path / "p")
    file, old, new, says = BAD[case]
    _edit(proj / file, old, new)
    done = mcpgen(
        registry_env, "export", "server-json", "tools.yaml", "-o", "server.json", cwd=proj
    )
    line = _one_error(done)
    assert says in line, line
    assert not (proj / "server.json").exists()
    assert sorted(p.name for p in proj.iterdir()) == [
        "README.md",
        "pyproject.toml",
        "skills",
        "tools.yaml",
        "view",
    ]
    assert done.stdout == ""


def test_what_the_schema_refuses_is_located_in_the_document(
    tmp_path: Path, registry_env: dict[str, str]
) -> None:
    """The inputs pass the registry's rules, but the entry breaks its schema twice (a title
    over 100 characters, a remote URL with a space): one located line each, nothing written."""
    proj = _project(tmp_path / "p")
    _edit(proj / "tools.yaml", "  title: Weather\n", "  title: " + "W" * 120 + "\n")
    done = mcpgen(
        registry_env,
        "export",
        "server-json",
        "tools.yaml",
        "--remote",
        "https://weather.example.com/my mcp",
        "-o",
        "server.json",
        cwd=proj,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert "server.json /remotes/0/url: `remotes[0].url`" in done.stderr
    assert "server.json /title: `title` is 120 characters; at most 100 are allowed" in done.stderr
    assert lines[-1] == "mcpgen: error: 2 problems; server.json not written"
    assert not (proj / "server.json").exists()


def _tampered(tmp_path: Path, data: bytes) -> Path:
    mirror = tmp_path / "mirror"
    (mirror / VERSION).mkdir(parents=True)
    (mirror / VERSION / "server.schema.json").write_bytes(data)
    return mirror


def test_a_schema_file_whose_sha256_differs_from_the_pin_is_refused(
    tmp_path: Path, registry_env: dict[str, str], schema: dict[str, Any]
) -> None:
    from mcpgen.publish.registry_schema import SCHEMA_SHA256

    proj = _project(tmp_path / "p")
    loosened = json.loads(json.dumps(schema))
    loosened["definitions"]["ServerDetail"]["properties"]["description"]["maxLength"] = 1000
    mirror = _tampered(tmp_path, (json.dumps(loosened, indent=2) + "\n").encode())
    env = {**registry_env, "MCPGEN_REGISTRY_SCHEMA_DIR": str(mirror)}
    done = mcpgen(env, "export", "server-json", "tools.yaml", "-o", "server.json", cwd=proj)
    line = _one_error(done)
    assert (
        f"{mirror / VERSION / 'server.schema.json'}: sha256 mismatch for the MCP Registry's" in line
    )
    assert f"expected {SCHEMA_SHA256}, got " in line
    assert not (proj / "server.json").exists()


def test_a_mirror_without_the_schema_is_one_clear_message(
    tmp_path: Path, registry_env: dict[str, str]
) -> None:
    proj = _project(tmp_path / "p")
    env = {**registry_env, "MCPGEN_REGISTRY_SCHEMA_DIR": str(tmp_path / "empty")}
    done = mcpgen(env, "export", "server-json", "tools.yaml", cwd=proj)
    line = _one_error(done)
    assert "is not in $MCPGEN_REGISTRY_SCHEMA_DIR" in line
    assert done.stdout == ""


def test_the_pinned_file_is_downloaded_into_the_cache_when_there_is_no_mirror(
    tmp_path: Path, schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No mirror: the pinned URL is fetched (here: served from the mirror's bytes), verified
    and cached; bytes that differ from the pin are refused and not cached."""
    from mcpgen.errors import McpgenError
    from mcpgen.publish import registry_schema

    mirror = _mirror()
    if mirror is None:  # pragma: no cover
        pytest.skip("no local mirror to serve the pinned bytes from")
    good = (mirror / VERSION / "server.schema.json").read_bytes()
    fetched: list[str] = []

    def fake_download(url: str, what: str, timeout: float) -> bytes:
        fetched.append(url)
        return served

    monkeypatch.delenv("MCPGEN_REGISTRY_SCHEMA_DIR", raising=False)
    monkeypatch.setenv("MCPGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(registry_schema, "download", fake_download)
    registry_schema._load.cache_clear()
    served = good.replace(b"maxLength", b"maxlength", 1)
    with pytest.raises(McpgenError, match="sha256 mismatch"):
        registry_schema.load_registry_schema()
    assert not registry_schema.schema_path().exists()
    served = good
    registry_schema._load.cache_clear()
    assert registry_schema.load_registry_schema() == schema
    assert fetched == [registry_schema.SCHEMA_URL] * 2
    assert registry_schema.schema_path().read_bytes() == good
    registry_schema._load.cache_clear()


@pytest.mark.parametrize(
    ("version", "is_range"),
    [
        ("1.0.0", False),
        ("2.1.0-alpha", False),
        ("1.0.0+build.5", False),
        ("2026.10.19", False),
        ("latest", True),
        ("LATEST", True),
        ("^1.2.3", True),
        ("~1.2.3", True),
        (">=1.2.3", True),
        ("<2", True),
        ("==1.0", True),
        ("1.x", True),
        ("1.2.X", True),
        ("1.*", True),
        ("*", True),
        (">=1,<2", True),
        ("^1 || ^2", True),
        ("1.0 - 2.0", True),
    ],
)
def test_version_ranges(version: str, is_range: bool) -> None:
    from mcpgen.publish.server_json import is_version_range

    assert is_version_range(version) is is_range


# ---------------------------------------------------------------- REGISTRY_VERSION_AGREEMENT


def test_versions_that_disagree_are_located_in_each_file(
    tmp_path: Path, registry_env: dict[str, str]
) -> None:
    proj = _project(tmp_path / "p")
    _edit(proj / "pyproject.toml", 'version = "1.0.0"', 'version = "1.0.1"')
    (proj / "server.json").write_text(
        json.dumps(
            {
                "name": NAME,
                "description": "x",
                "version": "0.9.0",
                "packages": [
                    {
                        "registryType": "pypi",
                        "identifier": "weather-server",
                        "version": "1.0.0",
                        "transport": {"type": "stdio"},
                    },
                    {
                        "registryType": "pypi",
                        "identifier": "weather-server",
                        "version": "1.0.2",
                        "transport": {"type": "stdio"},
                    },
                ],
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    done = mcpgen(registry_env, "check", "tools.yaml", "--format", "json", cwd=proj)
    found = [
        d
        for d in json.loads(done.stdout)["diagnostics"]
        if d["rule_id"] == "REGISTRY_VERSION_AGREEMENT"
    ]
    where = sorted((d["path"], d["line"], d["col"], d["pointer"]) for d in found)
    assert where == [
        ("pyproject.toml", 3, 1, ""),
        ("server.json", 4, 14, "/version"),
        ("server.json", 17, 18, "/packages/1/version"),
        ("tools.yaml", 5, 12, "/server/version"),
    ]
    assert all(d["severity"] == "warning" for d in found)
    at_manifest = next(d for d in found if d["path"] == "tools.yaml")
    assert "'1.0.1'" in at_manifest["message"] and "'0.9.0'" in at_manifest["message"]
    assert len(at_manifest["related"]) == 3
    # the text format: one line per place, each file:line:col
    text = mcpgen(registry_env, "check", "tools.yaml", cwd=proj)
    assert (
        "pyproject.toml:3:1: warning REGISTRY_VERSION_AGREEMENT version '1.0.1' here" in text.stdout
    )


def test_the_rule_is_silent_without_a_registry_name(
    tmp_path: Path, registry_env: dict[str, str]
) -> None:
    proj = tmp_path / "p"
    proj.mkdir()
    shutil.copy(WEATHER, proj / "tools.yaml")
    for folder in ("skills", "view"):  # the example's skill and view, beside it
        if (WEATHER.parent / folder).exists():
            shutil.copytree(WEATHER.parent / folder, proj / folder)
    (proj / "pyproject.toml").write_text(PYPROJECT.replace('"1.0.0"', '"3.0.0"'), encoding="utf-8")
    done = mcpgen(registry_env, "check", "tools.yaml", "--format", "json", cwd=proj)
    assert done.returncode == 0, done.stderr
    assert "REGISTRY_VERSION_AGREEMENT" not in done.stdout


def test_a_cache_that_cannot_be_written_does_not_stop_the_download(
    tmp_path: Path, schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcpgen.publish import registry_schema

    mirror = _mirror()
    if mirror is None:  # pragma: no cover
        pytest.skip("no local mirror to serve the pinned bytes from")
    good = (mirror / VERSION / "server.schema.json").read_bytes()
    (tmp_path / "a-file").write_text("a file where the cache folder belongs")
    monkeypatch.delenv("MCPGEN_REGISTRY_SCHEMA_DIR", raising=False)
    monkeypatch.setenv("MCPGEN_CACHE_DIR", str(tmp_path / "a-file" / "cache"))
    monkeypatch.setattr(registry_schema, "download", lambda url, what, timeout: good)
    registry_schema._load.cache_clear()
    try:
        assert registry_schema.load_registry_schema() == schema
    finally:
        registry_schema._load.cache_clear()
