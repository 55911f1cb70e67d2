"""The MCP Registry entry (``server.json``) of a generated server. Pure: the manifest and the
packaging facts (``mcpgen.publish.packaging``) in, a document (and notes) or located problems out.

* ``input_problems``: the registry's rules that its schema only describes, checked on the
  inputs, each at the place to fix it: a name (``server.registry``) and a description of at
  most 100 characters; a version in ``[project].version`` that is one exact version (no range,
  no ``latest``) and the manifest's ``server.version``; ``mcp-name: NAME`` in the README PyPI
  shows (the registry's ownership check of a PyPI package).
* ``server_json``: the document: a ``pypi`` package with a stdio transport and the environment
  variables the generated server reads (``isSecret`` where they hold a secret); with a URL, a
  ``streamable-http`` remote too. ``mcpgen.publish.registry_schema`` validates it.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from mcpgen.manifest.model import Manifest
from mcpgen.outputs import PUBLISHER_META, SERVER_JSON_TOOL
from mcpgen.publish.packaging import Packaging, manifest_registry_name
from mcpgen.publish.registry_schema import SCHEMA_URL

__all__ = [
    "DESCRIPTION_MAX",
    "NAME_PATTERN",
    "InputProblem",
    "environment_variables",
    "input_problems",
    "is_version_range",
    "server_json",
]

DESCRIPTION_MAX = 100
NAME_PATTERN = re.compile(r"[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+/[a-zA-Z0-9._-]+\Z")
"""Reverse-DNS namespace, one slash, the server's name (the manifest schema's pattern for
``server.registry``; the registry's own schema is looser and its publisher checks this)."""

BASE_URL_ENV = "MCPGEN_HTTP_BASE_URL"
STATE_ENV = "MCPGEN_STATE_URL"
TOOLSETS_ENV = "MCPGEN_TOOLSETS"


def auth_env(scheme: str) -> str:
    """The variable holding security scheme ``scheme``'s credential (the manifest schema's
    ``MCPGEN_HTTP_AUTH_<SCHEME>``; the runtime's ``forward.auth_env``, which a test compares)."""
    return "MCPGEN_HTTP_AUTH_" + re.sub(r"[^A-Z0-9]", "_", scheme.upper())


class InputProblem(NamedTuple):
    """A registry rule the inputs break: ``file`` is ``"manifest"`` (``pointer`` into it) or
    ``"pyproject"``/``"readme"`` (``line``/``col`` in it)."""

    file: str
    message: str
    pointer: str = ""
    line: int = 1
    col: int = 1


_RANGE = re.compile(
    r"""^\s*(\^|~|[<>=!]=?|==)      # an operator: ^1.2, ~1.2, >=1.2, ==1.2, !=1.2
      | [*]                          # a wildcard: 1.*
      | (^|\.)[xX](\.|$)             # 1.x, 1.2.X
      | \s-\s | \|\| | ,             # 1.0 - 2.0, ^1 || ^2, >=1,<2
    """,
    re.VERBOSE,
)


def is_version_range(version: str) -> bool:
    """A range (``^1.2.3``, ``~1.2``, ``>=1.2``, ``1.x``, ``1.*``, ...) or ``latest``: what the
    registry refuses where it wants one specific version."""
    return version.strip().lower() == "latest" or bool(_RANGE.search(version))


def input_problems(manifest: Manifest, packaging: Packaging) -> list[InputProblem]:
    """Every registry rule the manifest and the packaging break, located (empty: go on)."""
    out: list[InputProblem] = []
    raw = manifest.raw if isinstance(manifest.raw, dict) else {}
    found = raw.get("server")
    server: dict[str, Any] = found if isinstance(found, dict) else {}
    name = manifest_registry_name(raw)
    if name is None:
        out.append(
            InputProblem(
                "manifest",
                "server.registry is not set: the registry entry needs the server's name there, "
                "reverse-DNS (io.github.USER/NAME, or com.example/NAME for a domain you own)",
                "/server" if server else "",
            )
        )
    elif not NAME_PATTERN.match(name) or len(name) > 200:
        out.append(
            InputProblem(
                "manifest",
                f"server.registry {name!r} is not a registry name: reverse-DNS namespace, one "
                "slash, then the name (io.github.USER/NAME)",
                "/server/registry",
            )
        )
    description = manifest.server.description
    if not description:
        out.append(
            InputProblem(
                "manifest",
                "server.description is not set: the registry entry needs one (at most "
                f"{DESCRIPTION_MAX} characters)",
                "/server" if server else "",
            )
        )
    elif len(description) > DESCRIPTION_MAX:
        out.append(
            InputProblem(
                "manifest",
                f"server.description is {len(description)} characters; the registry allows at "
                f"most {DESCRIPTION_MAX}: shorten it",
                "/server/description",
            )
        )
    out += _version_problems(manifest, packaging, "version" in server)
    if name is not None and NAME_PATTERN.match(name):
        out += _readme_problems(name, packaging)
    return out


def _version_problems(
    manifest: Manifest, packaging: Packaging, written: bool
) -> list[InputProblem]:
    out: list[InputProblem] = []
    line, col = packaging.version_at
    if packaging.version is None:
        why = (
            " ([project].dynamic lists it: the registry entry needs the version written here)"
            if packaging.dynamic_version
            else ""
        )
        out.append(InputProblem("pyproject", f"[project] has no version{why}", line=line, col=col))
    elif is_version_range(packaging.version):
        out.append(
            InputProblem(
                "pyproject",
                f"[project].version {packaging.version!r} is not one specific version (the "
                "registry refuses ranges and `latest`)",
                line=line,
                col=col,
            )
        )
    mv = manifest.server.version
    pointer = "/server/version" if written else "/server"
    if is_version_range(mv):
        out.append(
            InputProblem(
                "manifest",
                f"server.version {mv!r} is not one specific version (the registry refuses "
                "ranges and `latest`)",
                pointer,
            )
        )
    elif packaging.version is not None and mv != packaging.version and not out:
        said = "" if written else " (not set: the default)"
        out.append(
            InputProblem(
                "manifest",
                f"server.version is {mv!r}{said} but {packaging.pyproject.name} says "
                f"{packaging.version!r} ({packaging.pyproject}:{line}:{col}): they must agree",
                pointer,
            )
        )
    return out


def _readme_problems(name: str, packaging: Packaging) -> list[InputProblem]:
    marker = f"mcp-name: {name}"
    if packaging.readme_text is None:
        line, col = packaging.readme_at
        return [
            InputProblem(
                "pyproject",
                f"[project] has no readme, so PyPI shows none and the registry cannot find "
                f"`{marker}` (its ownership check): add a README with `<!-- {marker} -->`",
                line=line,
                col=col,
            )
        ]
    if marker in packaging.readme_text:
        return []
    where = "readme" if packaging.readme is not None else "pyproject"
    line, col = (1, 1) if packaging.readme is not None else packaging.readme_at
    return [
        InputProblem(
            where,
            f"the README PyPI shows does not contain `{marker}`, which the registry looks for "
            f"to confirm the PyPI package is this server's: add `<!-- {marker} -->`",
            line=line,
            col=col,
        )
    ]


def environment_variables(manifest: Manifest) -> list[dict[str, Any]]:
    """What the generated server reads from its environment, as registry inputs: the API's
    base URL and each security scheme's credential (``server.http``), the shared state's URL,
    and the toolsets to serve. ``server.auth`` is not here: it guards the HTTP transport, and
    a client of the remote finds the authorization server through the server's metadata."""
    s = manifest.server
    out: list[dict[str, Any]] = []
    http = s.http or {}
    if http:
        base = http.get("baseUrl")
        entry: dict[str, Any] = {
            "name": BASE_URL_ENV,
            "description": "The URL of the API the tools call"
            + (f" (default {base})" if isinstance(base, str) else ""),
            "isRequired": not isinstance(base, str),
        }
        if isinstance(base, str):
            entry["default"] = base
        out.append(entry)
        found = http.get("securitySchemes")
        schemes: dict[str, Any] = found if isinstance(found, dict) else {}
        for scheme in sorted(schemes):
            spec = schemes[scheme] if isinstance(schemes[scheme], dict) else {}
            kind = str(spec.get("scheme") or "").lower()
            what = {"basic": "user:password", "bearer": "a bearer token"}.get(
                kind, "the API key" if spec.get("type") == "apiKey" else "the credential"
            )
            out.append(
                {
                    "name": auth_env(scheme),
                    "description": f"Credential of the API's {scheme} security scheme: {what}",
                    "isRequired": False,
                    "isSecret": True,
                }
            )
    if s.toolsets:
        out.append(
            {
                "name": TOOLSETS_ENV,
                "description": "Serve only these toolsets, comma-separated: "
                + ", ".join(sorted(s.toolsets)),
                "isRequired": False,
            }
        )
    out.append(
        {
            "name": STATE_ENV,
            "description": "What replicas share (rate limits, enabled tools, resumable "
            "streams): redis://HOST:PORT/DB; unset, this process's memory",
            "isRequired": False,
            "isSecret": True,
        }
    )
    return out


def server_json(
    manifest: Manifest, packaging: Packaging, remote: str | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The registry entry, and notes on what was left out (call ``input_problems`` first: this
    assumes the name, description and version are there)."""
    s = manifest.server
    notes: list[str] = []
    version = packaging.version or s.version
    doc: dict[str, Any] = {
        "$schema": SCHEMA_URL,
        "name": manifest_registry_name(manifest.raw) or "",
        "description": s.description or "",
        "version": version,
    }
    if s.title:
        doc["title"] = s.title
    website = s.website_url or _url(packaging.urls, "homepage", "documentation")
    if website:
        doc["websiteUrl"] = website
    repo = _repository(packaging.urls)
    if repo:
        doc["repository"] = repo
    icons = []
    for icon in s.icons:
        src = icon.get("src")
        if isinstance(src, str) and src.startswith("https://"):
            icons.append({k: icon[k] for k in ("src", "mimeType", "sizes", "theme") if k in icon})
        else:
            notes.append("an icon that is not an https: URL is left out (the registry wants one)")
    if icons:
        doc["icons"] = icons
    package: dict[str, Any] = {
        "registryType": "pypi",
        "identifier": packaging.name,
        "version": version,
    }
    if packaging.name in packaging.scripts:
        package["runtimeHint"] = "uvx"
    package["transport"] = {"type": "stdio"}
    package["environmentVariables"] = environment_variables(manifest)
    doc["packages"] = [package]
    if remote is not None:
        doc["remotes"] = [{"type": "streamable-http", "url": remote}]
    # the place the schema gives publishers' tools: how `-o` knows the file is its own
    doc["_meta"] = {PUBLISHER_META: {"tool": SERVER_JSON_TOOL}}
    return doc, sorted(set(notes))


def _url(urls: dict[str, str], *keys: str) -> str | None:
    low = {k.lower().replace("-", " ").replace("_", " "): v for k, v in urls.items()}
    for key in keys:
        if key in low:
            return low[key]
    return None


def _repository(urls: dict[str, str]) -> dict[str, str] | None:
    """``[project.urls]``'s repository on GitHub or GitLab (the forges the registry knows)."""
    for key in ("repository", "source", "source code", "code", "github", "homepage"):
        url = _url(urls, key)
        m = re.match(r"https://(github\.com|gitlab\.com)/[^/\s]+/[^/\s#?]+", url or "")
        if m:
            clean = m.group(0)
            clean = clean[:-4] if clean.endswith(".git") else clean
            return {"url": clean, "source": m.group(1).split(".")[0]}
    return None
