"""The MCP Bundle (``.mcpb``) of a generated server: ``manifest.json`` plus the server and what
it needs, as ``{path: bytes}``. Pure: the caller reads the package and the vendored
distributions (``mcpgen.publish.vendor``) and writes the zip (``mcpgen.publish.zipdet``).

Why ``server.type: "python"`` with the dependencies vendored under ``server/lib``:
* It is what desktop hosts run today. MCPB manifest 0.4 (``@anthropic-ai/mcpb`` 2.1.2, the
  newest) also has ``"uv"``, but its own README calls it *experimental*: the host must bring uv
  and resolve ``pyproject.toml`` at install time, from an index. ``mcpgen-runtime`` is not on
  PyPI yet, so a uv launch could not resolve it; a vendored bundle needs no network and no
  resolver on the user's machine, only a Python of the right minor version.
* The price: ``pydantic-core``, ``jsonschema-rs``, ``cryptography`` and ``rpds-py`` are compiled
  for one platform and one Python, so the manifest says which (``compatibility.platforms``,
  ``compatibility.runtimes.python``); build one bundle per platform (e.g. a CI matrix).

The host runs ``python ${__dirname}/server/main.py`` (``mcp_config``): ``main.py`` puts
``server/`` and ``server/lib`` first on ``sys.path`` (``PYTHONPATH`` says the same for tools that
read it) and runs the package as ``python -m PACKAGE`` would: stdio, the default transport.

``user_config``: the secrets and settings a stdio server reads from its environment, which the
host asks the user for and passes through ``mcp_config.env``: the credential of each of
``server.http.securitySchemes`` (``MCPGEN_HTTP_AUTH_<SCHEME>``, ``sensitive``) and the API's base
URL (``MCPGEN_HTTP_BASE_URL``). ``server.auth`` (OAuth for the HTTP transport) does not apply to
a bundle, which speaks stdio.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen.publish.vendor import PlatformFacts

__all__ = ["MANIFEST_VERSION", "bundle_files", "bundle_manifest", "main_py"]

MANIFEST_VERSION = "0.4"
LIB = "server/lib"
ENTRY = "server/main.py"


def main_py(package: str) -> str:
    return (
        f'"""The bundle\'s entry point (written by mcpgen bundle): `python -m {package}` with\n'
        'the bundled packages first on sys.path."""\n\n'
        "import os\nimport runpy\nimport sys\n\n"
        "HERE = os.path.dirname(os.path.abspath(__file__))\n"
        'sys.path[:0] = [HERE, os.path.join(HERE, "lib")]\n'
        f'runpy.run_module("{package}", run_name="__main__", alter_sys=True)\n'
    )


def _env_key(scheme: str) -> str:
    return "MCPGEN_HTTP_AUTH_" + re.sub(r"[^A-Z0-9]", "_", scheme.upper())


def _config_key(scheme: str) -> str:
    return "http_auth_" + re.sub(r"[^a-z0-9]", "_", scheme.lower())


def user_config(manifest: Manifest) -> tuple[dict[str, Any], dict[str, str]]:
    """``user_config`` entries and the ``mcp_config.env`` that passes them on."""
    http = manifest.server.http or {}
    if not http:
        return {}, {}
    config: dict[str, Any] = {}
    env: dict[str, str] = {}
    base: dict[str, Any] = {
        "type": "string",
        "title": "API base URL",
        "description": "The URL of the API the tools call (MCPGEN_HTTP_BASE_URL).",
        "required": not http.get("baseUrl"),
    }
    if http.get("baseUrl"):
        base["default"] = str(http["baseUrl"])
    config["api_base_url"] = base
    env["MCPGEN_HTTP_BASE_URL"] = "${user_config.api_base_url}"
    schemes = http.get("securitySchemes") or {}
    for name in sorted(schemes) if isinstance(schemes, dict) else ():
        spec = schemes[name] if isinstance(schemes[name], dict) else {}
        kind = spec.get("scheme") or spec.get("type") or "credential"
        what = {"basic": "user:password", "bearer": "a bearer token"}.get(
            str(kind).lower(), "the API key" if spec.get("type") == "apiKey" else "the credential"
        )
        key = _config_key(name)
        config[key] = {
            "type": "string",
            "title": f"{name} credential",
            "description": (
                f"{spec.get('description') or 'Security scheme ' + name}: {what} "
                f"({_env_key(name)})."
            ),
            "sensitive": True,
            "required": False,
        }
        env[_env_key(name)] = "${user_config." + key + "}"
    return config, env


def _prompt(raw: dict[str, Any]) -> dict[str, Any]:
    args = [a["name"] for a in raw.get("arguments") or () if isinstance(a, dict) and a.get("name")]
    texts = []
    for msg in raw.get("messages") or ():
        text = msg.get("text") if isinstance(msg, dict) else None
        if isinstance(text, str):
            texts.append(re.sub(r"\{([A-Za-z0-9_\-]+)\}", r"${arguments.\1}", text))
    out: dict[str, Any] = {"name": str(raw.get("name", ""))}
    if raw.get("description"):
        out["description"] = str(raw["description"])
    if args:
        out["arguments"] = args
    # a prompt the handler writes has no static text: the description stands for it
    out["text"] = "\n\n".join(texts) or str(raw.get("description") or out["name"])
    return out


def bundle_manifest(
    manifest: Manifest, package: str, facts: PlatformFacts, author: str | None = None
) -> dict[str, Any]:
    s = manifest.server
    config, env = user_config(manifest)
    sep = ";" if facts.platform == "win32" else ":"
    doc: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "name": s.name,
    }
    if s.title:
        doc["display_name"] = s.title
    doc["version"] = s.version
    doc["description"] = s.description or s.title or s.name
    if s.instructions:
        doc["long_description"] = s.instructions
    doc["author"] = {"name": author or s.title or s.name}
    if s.website_url:
        doc["homepage"] = s.website_url
    doc["server"] = {
        "type": "python",
        "entry_point": ENTRY,
        "mcp_config": {
            "command": "python",
            "args": ["${__dirname}/" + ENTRY],
            "env": {
                "PYTHONPATH": sep.join(("${__dirname}/server", "${__dirname}/" + LIB)),
                **env,
            },
        },
    }
    doc["tools"] = [
        {"name": t.name, **({"description": t.description} if t.description else {})}
        for t in manifest.tools
    ]
    doc["tools_generated"] = False
    if manifest.prompts:
        doc["prompts"] = [_prompt(p.raw) for p in manifest.prompts]
        doc["prompts_generated"] = False
    compat: dict[str, Any] = {"runtimes": {"python": f"~={facts.python}.0"}}
    if facts.has_binaries:
        compat["platforms"] = [facts.platform]
        v = facts.python.split(".")
        compat["runtimes"]["python"] = f">={facts.python},<{v[0]}.{int(v[1]) + 1}"
    doc["compatibility"] = compat
    if config:
        doc["user_config"] = config
    return doc


def bundle_files(
    manifest: Manifest,
    package: str,
    package_files: dict[str, bytes],
    vendored: dict[str, bytes],
    facts: PlatformFacts,
    author: str | None = None,
) -> dict[str, bytes]:
    """Every file of the bundle, by its path in the zip (sorted). ``package_files`` are the
    generated package's files relative to the package directory; ``vendored`` those for
    ``server/lib``."""
    doc = bundle_manifest(manifest, package, facts, author)
    files: dict[str, bytes] = {
        "manifest.json": (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode(),
        ENTRY: main_py(package).encode(),
    }
    for rel, data in package_files.items():
        files[f"server/{package}/{rel}"] = data
    for rel, data in vendored.items():
        files[f"{LIB}/{rel}"] = data
    return dict(sorted(files.items()))
