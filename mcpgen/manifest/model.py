"""The typed manifest: what ``load_manifest`` returns and what every later layer reads.

A manifest is a server block, the targeted protocol revisions and a list of tools whose items
have exactly the wire ``Tool`` shape. Tools keep their raw JSON (``raw``) untouched so that the
generated server can serve it byte-for-byte; the typed accessors below only read it.

The value types are ``NamedTuple``s: immutable, compared and hashed by value, and about ten
times cheaper to define than frozen dataclasses on Python 3.11, which counts for ``mcpgen
check`` in pre-commit (``bench/bench_check.py``). ``SourceMap``, whose maps the loader fills,
stays a dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

# Every revision mcpgen knows, oldest first (``draft`` tracks the newest published revision):
# one table, owned by the runtime.
from mcpgen_runtime.revisions import KNOWN_REVISIONS

__all__ = [
    "KNOWN_REVISIONS",
    "Dependency",
    "Manifest",
    "SectionItem",
    "ServerInfo",
    "SourceMap",
    "ToolDef",
    "sha256_hex",
]


@dataclass(frozen=True)
class SourceMap:
    """JSON pointer (RFC 6901, "" = document root) -> 1-based (line, col) in ``path``.

    ``key_positions`` holds where the *key* of a mapping entry starts (useful to point at a
    property name); ``positions`` where the *value* starts.
    """

    path: str
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    ignores: dict[int, frozenset[str]] = field(default_factory=dict)
    """Line -> rule ids silenced there by ``# mcpgen: ignore RULE[, RULE]`` comments (a comment
    on its own line applies to the next content line, a trailing comment to its own line)."""

    redirects: dict[str, str] = field(default_factory=dict)
    """Pointer prefix -> pointer prefix in this file, for content that does not exist here as
    written: a shared schema bundled into ``/tools/0/inputSchema/$defs/Address`` is located at
    ``/$defs/Address`` (a schema copied from another file, at the ``$ref`` that pulled it in)."""

    def locate(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """Best known position for ``pointer``: walks up to the nearest mapped ancestor."""
        table = self.key_positions if key else self.positions
        p = self._redirect(pointer) if self.redirects else pointer
        while True:
            if p in table:
                return table[p]
            if p in self.positions:
                return self.positions[p]
            if p == "":
                return (1, 1)
            p = p.rsplit("/", 1)[0]

    def _redirect(self, pointer: str) -> str:
        p = pointer
        while p:
            target = self.redirects.get(p)
            if target is not None:
                return target + pointer[len(p) :]
            p = p.rsplit("/", 1)[0]
        return pointer


class ServerInfo(NamedTuple):
    name: str
    version: str = "0.1.0"
    title: str | None = None
    description: str | None = None
    instructions: str | None = None
    website_url: str | None = None
    icons: tuple[dict[str, Any], ...] = ()
    list_changed: bool = False
    """``server.capabilities.tools.listChanged``."""
    limits: dict[str, Any] | None = None
    """``server.limits`` as written (JSON spelling; the runtime reads it)."""
    cache_ttl_ms: int = 0
    cache_scope: str = "private"
    """``server.cache``: the caching hints of every cacheable result."""
    auth: dict[str, Any] | None = None
    """``server.auth`` as written (JSON spelling; the runtime resolves it with the operator's
    start-up options)."""
    toolsets: dict[str, dict[str, Any]] | None = None
    """``server.toolsets`` as written: name -> ``{description, default}``."""
    http: dict[str, Any] | None = None
    """``server.http`` as written: the API that tools with an ``x-mcpgen.http`` call."""
    tasks: dict[str, Any] | None = None
    """``server.tasks`` as written: the tasks extension's settings (keepSeconds, ...)."""
    discovery: dict[str, Any] | None = None
    """``server.discovery`` as written: the discovery mode (all, search, code), the tools and
    toolsets always listed, the search's result size, code mode's limits."""
    models: str = "pydantic"
    """``server.models``: what tool handlers receive, ``pydantic`` models or ``typeddict``
    (the validated JSON, typed by generated ``TypedDict``s)."""


class ToolDef(NamedTuple):
    """One tool. ``raw`` is the wire ``Tool`` object exactly as written (after bundling any
    shared ``$defs``/file refs into its own schemas); ``pointer`` is where it sits in the file."""

    raw: dict[str, Any]
    pointer: str

    @property
    def name(self) -> str:
        return str(self.raw.get("name", ""))

    @property
    def title(self) -> str | None:
        v = self.raw.get("title")
        return v if isinstance(v, str) else None

    @property
    def description(self) -> str | None:
        v = self.raw.get("description")
        return v if isinstance(v, str) else None

    @property
    def input_schema(self) -> dict[str, Any]:
        v = self.raw.get("inputSchema")
        return v if isinstance(v, dict) else {}

    @property
    def output_schema(self) -> dict[str, Any] | None:
        v = self.raw.get("outputSchema")
        return v if isinstance(v, dict) else None

    @property
    def annotations(self) -> dict[str, Any]:
        v = self.raw.get("annotations")
        return v if isinstance(v, dict) else {}

    @property
    def scopes(self) -> tuple[str, ...]:
        """``x-mcpgen.scopes``: the OAuth scopes a caller needs for this tool."""
        ext = self.raw.get("x-mcpgen")
        return _scopes(ext.get("scopes") if isinstance(ext, dict) else None)

    @property
    def toolsets(self) -> tuple[str, ...]:
        """``x-mcpgen.toolsets``: the toolsets this tool belongs to."""
        ext = self.raw.get("x-mcpgen")
        return _scopes(ext.get("toolsets") if isinstance(ext, dict) else None)


class SectionItem(NamedTuple):
    """One entry of ``resources``, ``resourceTemplates`` or ``prompts``: ``raw`` as written
    (the wire definition plus mcpgen's own keys: ``text``, ``handler``, ``variables``,
    ``messages``, ``completions``), ``pointer`` where it sits in the file."""

    raw: dict[str, Any]
    pointer: str
    data: bytes | None = None
    """A resource's ``file:`` contents, as read by the loader."""

    @property
    def name(self) -> str:
        return str(self.raw.get("name", ""))

    @property
    def handler(self) -> bool:
        return self.raw.get("handler") is True

    @property
    def scopes(self) -> tuple[str, ...]:
        """``scopes``: the OAuth scopes a caller needs for this item."""
        return _scopes(self.raw.get("scopes"))


def _scopes(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, str) and v)


class Dependency(NamedTuple):
    """A file other than the manifest that loading read (reached through a file ``$ref``).

    ``path`` is relative to the manifest's directory, POSIX separators, spelled as the ``$ref``
    named it (``./schemas/p.json`` -> ``schemas/p.json``; ``..`` folded when that names the same
    file). ``sha256`` is of the bytes as read *before* parsing, so a file changed while mcpgen
    runs is seen as changed next time. ``resolved`` is the file actually opened (symlinks
    resolved), relative to the manifest's resolved directory; usually equal to ``path``.
    """

    path: str
    sha256: str
    resolved: str


def sha256_hex(data: bytes) -> str:
    """The digest a ``Dependency`` records (hashlib, i.e. OpenSSL, is loaded only for manifests
    that read other files)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


class Manifest(NamedTuple):
    path: str
    server: ServerInfo
    revisions: tuple[str, ...]
    tools: tuple[ToolDef, ...]
    defs: dict[str, Any]
    source_map: SourceMap
    raw: Any
    """The whole document as loaded (dict for a full manifest, list for a bare tool list)."""
    dependencies: tuple[Dependency, ...] = ()
    """Every other file loading read (file ``$ref`` targets, transitively), sorted by ``path``;
    with the manifest itself these are all the inputs of anything generated from it."""
    resources: tuple[SectionItem, ...] = ()
    templates: tuple[SectionItem, ...] = ()
    """``resourceTemplates``."""
    prompts: tuple[SectionItem, ...] = ()
    skills: tuple[Any, ...] = ()
    """``skills``: ``mcpgen.manifest.skills.SkillDef`` each (folders read by the loader)."""
