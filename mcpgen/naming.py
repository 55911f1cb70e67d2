"""Manifest names -> safe, collision-free Python identifiers.

Tool names are free-form strings (the spec only *recommends* ``A-Z a-z 0-9 _ - .``), so a
generator must turn ``admin.tools.list``, ``get-user``, ``class``, ``2fa``, ``getUser`` or
``天气`` into method names and class-name stems that

* are valid, ASCII Python identifiers that are not keywords,
* never start with an underscore (so they can never shadow dunder methods or the private
  ``_mcpgen_*`` attributes of generated classes),
* are unique within one manifest (collisions after mangling get ``_2``, ``_3``... in manifest
  order, so adding a tool at the end never renames an existing one),
* are stable: the same inputs always give the same names.

Class stems (``GetUser``) become ``GetUserInput``/``GetUserOutput`` model names; they are also
chosen so that no stem is another stem followed by ``Input``/``Output`` (which would let the
names of hoisted ``$defs`` models, ``<Stem>Input<Def>``, collide with a tool's own models).

Pure functions, stdlib only.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_WORD_SPLIT = re.compile(r"[^0-9A-Za-z]+")
# getUser -> get User ; HTTPServer -> HTTP Server ; v2Api -> v2 Api
_CAMEL_1 = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_2 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")

# Names that must not be used as method names on the generated base class even though they
# are identifiers: keywords (hard and soft) plus a few names that read badly or confuse tools.
RESERVED_METHOD_NAMES: frozenset[str] = frozenset(
    set(keyword.kwlist) | set(keyword.softkwlist) | {"self", "cls", "args", "ctx", "mro"}
)

# Stem suffixes the model generator appends; a stem must not be another stem + one of these.
MODEL_SUFFIXES: tuple[str, ...] = ("Input", "Output")


def _ascii_fold(text: str) -> str:
    """Strip accents (``é`` -> ``e``); characters with no ASCII form are dropped."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def words(name: str) -> list[str]:
    """Split a free-form name into lower-case ASCII words (may be empty)."""
    folded = _ascii_fold(name)
    folded = _CAMEL_2.sub(r"\1 \2", folded)
    folded = _CAMEL_1.sub(r"\1 \2", folded)
    return [w.lower() for w in _WORD_SPLIT.split(folded) if w]


def _short_hash(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def snake_identifier(name: str, *, fallback: str = "tool") -> str:
    """A snake_case identifier for ``name`` (not yet de-duplicated)."""
    parts = words(name)
    if not parts:
        # Nothing ASCII survives (e.g. a purely CJK name): stay stable and distinct.
        return f"{fallback}_{_short_hash(name)}"
    ident = "_".join(parts)
    if ident[0].isdigit():
        ident = f"{fallback}_{ident}"
    if ident in RESERVED_METHOD_NAMES:
        ident = f"{ident}_"
    return ident


def pascal_stem(identifier: str) -> str:
    """``get_user`` -> ``GetUser``; digits stay attached (``tool_2fa`` -> ``Tool2fa``)."""
    return "".join(p[:1].upper() + p[1:] for p in identifier.split("_") if p)


def _dedupe(candidate: str, used: set[str]) -> str:
    if candidate not in used:
        return candidate
    base = candidate.rstrip("_")
    n = 2
    while f"{base}_{n}" in used:
        n += 1
    return f"{base}_{n}"


@dataclass(frozen=True)
class ToolNames:
    """The Python names chosen for one tool."""

    tool_name: str
    method_name: str
    class_stem: str

    @property
    def input_model(self) -> str:
        return f"{self.class_stem}Input"

    @property
    def output_model(self) -> str:
        return f"{self.class_stem}Output"


def _stem_conflicts(stem: str, taken: Iterable[str]) -> bool:
    for other in taken:
        if stem == other:
            return True
        for suffix in MODEL_SUFFIXES:
            if stem.startswith(other + suffix) or other.startswith(stem + suffix):
                return True
    return False


def assign_tool_names(
    tool_names: Sequence[str], *, reserved: Iterable[str] = ()
) -> tuple[ToolNames, ...]:
    """Names for every tool, in manifest order; collision-free and stable under appends.

    ``reserved`` adds method names that must not be used (e.g. attributes of a base class).
    """
    used_methods: set[str] = set(reserved)
    stems: list[str] = []
    out: list[ToolNames] = []
    for name in tool_names:
        method = _dedupe(snake_identifier(name), used_methods)
        used_methods.add(method)
        stem = pascal_stem(method)
        if not stem or not stem[0].isalpha():
            stem = "Tool" + stem
        if keyword.iskeyword(stem):  # None, True, False
            stem += "Tool"
        base_stem, n = stem, 2
        while _stem_conflicts(stem, stems):
            # A numeric suffix cannot cure a prefix clash (``XInputFoo`` vs ``X``); a numbered
            # prefix can, and only finitely many stems exist, so this terminates.
            stem = f"{base_stem}{n}"
            if _stem_conflicts(stem, stems):
                stem = f"Tool{n}{base_stem}"
            n += 1
        stems.append(stem)
        out.append(ToolNames(tool_name=name, method_name=method, class_stem=stem))
    return tuple(out)


def is_safe_identifier(name: str) -> bool:
    """ASCII identifier, not a keyword, not starting with ``_``."""
    return bool(_IDENTIFIER.match(name)) and not keyword.iskeyword(name)


def package_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the generated package's import name, or None if it can."""
    if not _IDENTIFIER.match(name) and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
        return (
            "must be a Python identifier (letters, digits, underscores; not starting with a digit)"
        )
    if keyword.iskeyword(name) or name in keyword.softkwlist:
        return "must not be a Python keyword"
    if name.startswith("_"):
        return "must not start with an underscore"
    if name in RUNTIME_IMPORTS:
        return (
            f"would shadow the {name!r} package, which generated code imports (mcpgen-runtime "
            "or one of its dependencies): choose another name"
        )
    if name in sys.stdlib_module_names:
        return f"would shadow the standard library's {name!r} module: choose another name"
    return None


RUNTIME_IMPORTS = frozenset(
    {
        # the runtime distribution, and the generator itself
        "mcpgen_runtime",
        "mcp_wire",
        "mcpgen",
        # what mcpgen-runtime needs, with everything they need (tests/server/test_naming.py
        # checks this list against the installed dependency tree), and its extras
        *("mcp", "mcp_types", "pydantic", "pydantic_core", "annotated_types"),
        *("typing_extensions", "typing_inspection", "jsonschema_rs", "lazy_loader"),
        *("jwt", "cryptography", "cffi", "pycparser", "httpx2", "httpcore2", "h11", "idna"),
        *("certifi", "anyio", "sniffio", "exceptiongroup", "truststore", "uri_template"),
        *("platformdirs", "click", "starlette", "sse_starlette", "uvicorn", "multipart"),
        *("python_multipart", "jsonschema", "jsonschema_specifications", "referencing"),
        *("rpds", "attr", "attrs", "opentelemetry", "packaging", "pydantic_settings"),
        *("dotenv", "uvloop", "httptools", "redis", "hiredis", "limits", "deprecated", "wrapt"),
        "yaml",  # pyyaml: a client verifies skill front matter (client/skills.py)
        "orjson",  # the [server] extra: the lean engine's JSON (lean/jsonrpc.py)
        "pydantic_monty",  # the [codemode] extra: code mode's sandbox (codemode/sandbox.py)
        "snowballstemmer",  # the tool search's stemmer (search_index.py)
        "Stemmer",  # PyStemmer, which snowballstemmer uses instead of itself when installed
    }
)
"""Top-level import names a generated package must not take: a package of that name, put on
``sys.path`` to be run, would be imported instead of the real one, and the runtime would not
start ("is not installed")."""


def class_name_from(text: str, *, suffix: str, fallback: str = "Generated") -> str:
    """A PascalCase class name built from free text (e.g. the server name) plus ``suffix``."""
    stem = pascal_stem("_".join(words(text)))
    if not stem or not stem[0].isalpha():
        stem = fallback + stem
    return stem + suffix
