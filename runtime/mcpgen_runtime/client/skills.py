"""``client.skills``: the skills extension (``io.modelcontextprotocol/skills``, SEP-2640) from
the client side, verified as the extension requires of a host.

* ``list()`` (``skills/list``, every page) and ``get(uri)`` (``skills/get``) return ``Skill``
  entries: the front matter and the file manifest (``uri``, ``sha256:`` digest, size), or
  ``dynamic``. Listing reads no file: a host MUST NOT fetch a skill's files ahead of need.
* ``read(skill, path)`` reads one file with ``resources/read`` and checks it against the entry
  before handing it out: its byte length against ``size``, its sha256 against ``digest``, and,
  for ``SKILL.md``, its YAML front matter field by field against the entry's. Any mismatch
  raises ``SkillVerificationError`` and the content is dropped, never returned.
* ``load(skill)`` is ``read(skill, "SKILL.md")`` as text; ``directory(uri)`` is
  ``resources/directory/read`` (every page).

The front matter is parsed with PyYAML under YAML 1.2 scalar rules (only ``true``/``false``
are booleans, dates stay strings), the rules of the JSON the server sends.
"""

from __future__ import annotations

import base64
import builtins
import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ClientError
from .failures import map_error

if TYPE_CHECKING:
    from .surface import _Connected

__all__ = ["EXTENSION", "Skill", "SkillFile", "SkillVerificationError", "SkillsNamespace"]

EXTENSION = "io.modelcontextprotocol/skills"
_MAX_PAGES = 1000


class SkillVerificationError(ClientError):
    """A skill file did not match its entry (size, digest or front matter): not used."""


@dataclass(frozen=True)
class SkillFile:
    uri: str
    digest: str
    size: int


@dataclass(frozen=True)
class Skill:
    """One entry of ``skills/list`` / ``skills/get``."""

    uri: str
    """The skill's ``SKILL.md`` URI (``skill://<path>/SKILL.md``)."""
    frontmatter: dict[str, Any]
    files: tuple[SkillFile, ...] | None
    """The file manifest; None for a ``dynamic`` skill (nothing to verify against)."""

    @property
    def name(self) -> str:
        return str(self.frontmatter.get("name", ""))

    @property
    def description(self) -> str:
        return str(self.frontmatter.get("description", ""))

    @property
    def base(self) -> str:
        """The skill's folder URI (``uri`` without ``/SKILL.md``)."""
        return self.uri.rsplit("/", 1)[0]

    def file(self, path_or_uri: str) -> SkillFile | None:
        uri = path_or_uri if "://" in path_or_uri else f"{self.base}/{path_or_uri}"
        return next((f for f in self.files or () if f.uri == uri), None)

    @classmethod
    def from_wire(cls, raw: Any) -> Skill:
        if not isinstance(raw, dict) or not isinstance(raw.get("uri"), str):
            raise ClientError(f"not a skill entry: {raw!r}")
        fm = raw.get("frontmatter")
        res = raw.get("resources")
        files = (
            None
            if res == "dynamic"
            else tuple(
                SkillFile(str(r.get("uri")), str(r.get("digest")), int(r.get("size", -1)))
                for r in (res if isinstance(res, list) else [])
                if isinstance(r, dict)
            )
        )
        return cls(raw["uri"], fm if isinstance(fm, dict) else {}, files)


def parse_front_matter(text: str) -> dict[str, Any] | None:
    """The YAML front matter of a ``SKILL.md`` as a mapping, or None when there is none."""
    import yaml  # type: ignore[import-untyped]

    body = text[1:] if text.startswith("\ufeff") else text
    m = re.match(r"^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)", body)
    if m is None:
        return None
    try:
        value = yaml.load(m.group(1), Loader=_loader())  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError:
        return None
    return value if isinstance(value, dict) else None


def _loader() -> Any:
    import yaml

    bool_tag, stamp_tag = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp"

    class Yaml12(yaml.SafeLoader):  # type: ignore[misc]
        pass

    Yaml12.yaml_implicit_resolvers = {
        k: [(t, rx) for t, rx in v if t not in (bool_tag, stamp_tag)]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Yaml12.add_implicit_resolver(
        bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
    )
    return Yaml12


class SkillsNamespace:
    """``client.skills``."""

    def __init__(self, client: _Connected) -> None:
        self._client = client

    async def _request(self, method: str, params: dict[str, Any], target: str) -> dict[str, Any]:
        from mcp import types
        from pydantic import ConfigDict

        class Raw(types.Result):
            model_config = ConfigDict(extra="allow")

        try:
            raw = await self._client.mcp.session.send_request(
                types.Request[dict[str, Any], str](method=method, params=params), Raw
            )
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001 - mapped to typed errors
            raise map_error(self._client._label, target, exc, target=target) from exc
        return dict(raw.model_extra or {})

    async def list(self) -> list[Skill]:
        """Every skill the server lists (``skills/list``, all pages). Reads no file."""
        out: list[Skill] = []
        cursor: str | None = None
        for _ in range(_MAX_PAGES):
            params: dict[str, Any] = {"cursor": cursor} if cursor else {}
            page = await self._request("skills/list", params, "skills/list")
            out += [Skill.from_wire(e) for e in page.get("skills") or []]
            cursor = page.get("nextCursor")
            if not isinstance(cursor, str) or not cursor:
                return out
        raise ClientError(f"{self._client._label}: skills/list did not stop paging")

    async def get(self, uri: str) -> Skill:
        """One skill's entry by its ``SKILL.md`` URI (``skills/get``)."""
        result = await self._request("skills/get", {"uri": uri}, f"skill {uri!r}")
        return Skill.from_wire(result.get("skill"))

    async def read(self, skill: Skill, path: str = "SKILL.md") -> bytes:
        """The bytes of one file of ``skill``, verified against the entry (size, digest; the
        front matter for ``SKILL.md``); ``SkillVerificationError`` when they differ."""
        uri = path if "://" in path else f"{skill.base}/{path}"
        listed = skill.file(uri)
        if skill.files is not None and listed is None:
            raise SkillVerificationError(f"{uri}: not in the skill's file manifest")
        try:
            result = await self._client.mcp.read_resource(uri)
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise map_error(self._client._label, uri, exc, target=f"resource {uri!r}") from exc
        data = _bytes(uri, getattr(result, "contents", None) or [])
        if listed is not None:
            if len(data) != listed.size:
                raise SkillVerificationError(
                    f"{uri}: {len(data)} bytes where the skill lists {listed.size}; not used"
                )
            digest = "sha256:" + hashlib.sha256(data).hexdigest()
            if digest != listed.digest:
                raise SkillVerificationError(
                    f"{uri}: digest {digest} where the skill lists {listed.digest}; not used"
                )
        if uri == skill.uri:
            _same_front_matter(uri, data, skill.frontmatter)
        return data

    async def load(self, skill: Skill) -> str:
        """The skill's ``SKILL.md``, verified, as text."""
        return (await self.read(skill)).decode("utf-8")

    async def directory(self, uri: str) -> builtins.list[dict[str, Any]]:
        """The direct children of a skill folder (``resources/directory/read``, all pages)."""
        out: builtins.list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(_MAX_PAGES):
            params: dict[str, Any] = {"uri": uri, **({"cursor": cursor} if cursor else {})}
            page = await self._request("resources/directory/read", params, f"directory {uri!r}")
            out += [r for r in page.get("resources") or [] if isinstance(r, dict)]
            cursor = page.get("nextCursor")
            if not isinstance(cursor, str) or not cursor:
                return out
        raise ClientError(f"{self._client._label}: directory read did not stop paging")


def _bytes(uri: str, contents: list[Any]) -> bytes:
    for c in contents:
        text = getattr(c, "text", None)
        if isinstance(text, str):
            return text.encode("utf-8")
        blob = getattr(c, "blob", None)
        if isinstance(blob, str):
            return base64.b64decode(blob)
    raise SkillVerificationError(f"{uri}: the server returned no contents")


def _same_front_matter(uri: str, data: bytes, listed: dict[str, Any]) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SkillVerificationError(f"{uri}: SKILL.md is not UTF-8; not used") from None
    found = parse_front_matter(text)
    if found is None:
        raise SkillVerificationError(f"{uri}: SKILL.md has no YAML front matter; not used")
    differ = sorted(k for k in {*found, *listed} if found.get(k) != listed.get(k))
    if differ:
        raise SkillVerificationError(
            f"{uri}: the front matter differs from the skill's entry in {', '.join(differ)}; "
            "not used"
        )
