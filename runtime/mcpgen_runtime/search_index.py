"""The tool search of a server in search or code mode (``server.discovery``): a BM25 index
computed once, at build time, by ``build_index`` (``mcpgen server`` writes it into
``_generated/discovery.py``), and scored at run time by ``SearchIndex.top``.

Each tool is one document: its name (three times), title (twice), description, the names
(twice) and descriptions of its top-level parameters, and its toolsets. The ranking is
Lucene's BM25 (the default of ``bm25s``, which the tests use as the referee on the same
tokens): ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))`` and ``tf / (tf + k1 (1 - b + b dl /
avgdl))``. Every term's weight in every document is precomputed, so a query is a sum over its
terms' postings: a few microseconds per term, with no numpy or scipy in the runtime.

Tokens: words split on anything not a letter or digit (so snake_case and kebab-case) and on
camelCase, lower-cased, English stop words left out, each reduced to its stem by the Snowball
English stemmer (``snowballstemmer``, the maintained pure-Python Snowball: "archiving",
"archived" and "archive" are one term, as "repositories" and "repository" are); each CJK
character (Han, kana, Hangul) is a token of its own, since those scripts write no spaces. The
index records the stemmer's version: a server whose stemmer is another version rebuilds the
index from its tools rather than score query stems against stems it did not make.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "FORMAT",
    "MAX_QUERY_CHARS",
    "SearchIndex",
    "build_index",
    "current",
    "document",
    "stemmer_version",
    "tokens",
]

FORMAT = 2
"""The index's format (2: Snowball stems); the runtime rebuilds an index written in another
one, or by another version of the stemmer (``stemmer_version``)."""
K1, B = 1.5, 0.75
MAX_QUERY_CHARS = 1000
"""A longer query is refused (a tool error): no tool's purpose needs more words."""

_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_STOP = frozenset(
    "a an and are as at be by for from has in is it its of on or that the this to was were "
    "will with".split()
)


_stem: Callable[[str], str] | None = None


def _stemmer() -> Callable[[str], str]:
    """The English stemmer's ``stemWord``, memoised (a tool's words repeat across a catalogue
    and queries repeat words). Imported on the first use: ~14 ms of CPU once (the package
    imports its other languages' stemmers too, unless PyStemmer is installed)."""
    global _stem
    if _stem is None:
        from functools import lru_cache

        from snowballstemmer.english_stemmer import EnglishStemmer  # type: ignore[import-untyped]

        _stem = lru_cache(maxsize=1 << 16)(EnglishStemmer().stemWord)
    return _stem


def stemmer_version() -> str:
    """The installed ``snowballstemmer``'s version (recorded in the index)."""
    from importlib.metadata import version

    return version("snowballstemmer")


def tokens(text: str) -> list[str]:
    """The search tokens of ``text`` (module docstring)."""
    stem = _stemmer()
    out = []
    for word in _WORD.findall(_CAMEL.sub(" ", text)):
        w = word.lower()
        if w not in _STOP:
            out.append(stem(w))
    return out


def document(definition: Mapping[str, Any]) -> list[str]:
    """The tokens of one tool definition (its fields weighted by repetition)."""
    words: list[str] = []

    def add(value: Any, times: int = 1) -> None:
        if isinstance(value, str):
            words.extend(tokens(value) * times)

    add(definition.get("name"), 3)
    add(definition.get("title"), 2)
    add(definition.get("description"))
    schema = definition.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if isinstance(props, Mapping):
        for name, prop in props.items():
            add(name, 2)
            if isinstance(prop, Mapping):
                add(prop.get("title"))
                add(prop.get("description"))
    ext = definition.get("x-mcpgen")
    sets = ext.get("toolsets") if isinstance(ext, Mapping) else None
    for t in sets if isinstance(sets, list) else ():
        add(t)
    return words


def build_index(definitions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The index of ``definitions`` as JSON data: ``{"format", "stemmer", "names", "terms":
    {term: [doc, weight, doc, weight, ...]}}``, terms sorted, weights rounded to 6 decimals."""
    docs = [document(d) for d in definitions]
    n = len(docs)
    avgdl = (sum(len(d) for d in docs) / n) if n else 1.0
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, doc in enumerate(docs):
        counts: dict[str, int] = {}
        for t in doc:
            counts[t] = counts.get(t, 0) + 1
        for t, tf in counts.items():
            postings.setdefault(t, []).append((i, tf))
    terms: dict[str, list[float | int]] = {}
    for t in sorted(postings):
        rows = postings[t]
        idf = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
        flat: list[float | int] = []
        for i, tf in rows:
            norm = K1 * (1 - B + B * len(docs[i]) / (avgdl or 1.0))
            flat += [i, round(idf * tf / (tf + norm), 6)]
        terms[t] = flat
    return {
        "format": FORMAT,
        "stemmer": stemmer_version(),
        "names": [str(d.get("name")) for d in definitions],
        "terms": terms,
    }


def current(data: Mapping[str, Any]) -> bool:
    """Whether index ``data`` was built the way this runtime tokenizes queries."""
    return data.get("format") == FORMAT and data.get("stemmer") == stemmer_version()


class SearchIndex:
    """A loaded index (``build_index``'s data, or its JSON text)."""

    __slots__ = ("names", "terms")

    def __init__(self, data: Mapping[str, Any] | str) -> None:
        loaded: Mapping[str, Any] = json.loads(data) if isinstance(data, str) else data
        self.names: list[str] = list(loaded["names"])
        self.terms: dict[str, list[Any]] = dict(loaded["terms"])

    def scores(self, query: str) -> dict[int, float]:
        """Document -> score, for the documents sharing a term with ``query`` (each distinct
        query term counted once)."""
        scores: dict[int, float] = {}
        get = scores.get
        for t in set(tokens(query)):
            flat = self.terms.get(t)
            if flat is None:
                continue
            for j in range(0, len(flat), 2):
                d = flat[j]
                scores[d] = get(d, 0.0) + flat[j + 1]
        return scores

    def top(self, query: str, allowed: Iterable[str] | None, k: int) -> list[tuple[str, float]]:
        """The ``k`` best ``(name, score)`` among the tools named in ``allowed`` (None: all),
        best first; ties in manifest order."""
        keep = None if allowed is None else set(allowed)
        names = self.names
        ranked = sorted(
            (-s, d) for d, s in self.scores(query).items() if keep is None or names[d] in keep
        )
        return [(names[d], -s) for s, d in ranked[:k]]
