"""The compiled tool search (``mcpgen_runtime.search_index``): its scores agree with a maintained
BM25 implementation (``bm25s``, Lucene variant, the referee) on the same tokens, its tokens
handle other scripts, and a query over 500 tools costs well under a millisecond of CPU."""

from __future__ import annotations

import importlib.metadata
import json
import time

import pytest

from bench.manifest_factory import make_manifest
from mcpgen_runtime.search_index import SearchIndex, build_index, current, document, tokens


def _definitions(n: int) -> list[dict[str, object]]:
    return [dict(t) for t in make_manifest(n, seed=7)["tools"]]


def test_tokens_split_words_camel_case_and_cjk() -> None:
    assert tokens("getUserInvoices, list_repo-files") == [
        "get",
        "user",
        "invoic",
        "list",
        "repo",
        "file",
    ]
    assert tokens("the state of the issue") == ["state", "issu"]
    assert tokens("注文を返金") == ["注", "文", "を", "返", "金"]
    assert tokens("استرداد الطلب") == ["استرداد", "الطلب"]
    assert tokens("(((*+?[\\") == []


def test_tokens_are_snowball_stems() -> None:
    """Inflections of one word are one term: a query finds a tool worded in another form."""
    assert len({*tokens("archive archived archiving archives")}) == 1
    assert tokens("repositories") == tokens("repository")
    assert tokens("Deleting users") == tokens("deleted user")
    # a short or unusual word stays itself, and "ss" is no plural
    assert tokens("class api CI") == ["class", "api", "ci"]


def test_a_query_in_another_inflection_finds_the_tool() -> None:
    definitions = [
        {"name": "archive_product", "description": "Archive a product so it is hidden but kept."},
        {"name": "restore_product", "description": "Bring an archived product back."},
        {"name": "list_products", "description": "List every product."},
    ]
    index = SearchIndex(build_index(definitions))
    assert [n for n, _ in index.top("archiving products", None, 2)] == [
        "archive_product",
        "restore_product",
    ]


def test_an_index_from_another_stemmer_or_format_is_not_current() -> None:
    data = build_index(_definitions(5))
    assert current(data)
    assert data["stemmer"] == importlib.metadata.version("snowballstemmer")
    assert not current({**data, "stemmer": "0.0.1"})
    assert not current({**data, "format": 1})


def test_scores_agree_with_bm25s_on_the_same_tokens() -> None:
    bm25s = pytest.importorskip("bm25s")
    definitions = _definitions(120)
    index = SearchIndex(build_index(definitions))
    corpus = [document(d) for d in definitions]
    referee = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    referee.index(bm25s.tokenization.Tokenized(*_vocab_ids(corpus)), show_progress=False)
    vocab = _vocab_ids(corpus)[1]
    queries = ["list the invoices of a user", "delete a repo", "render weather report", "sync"]
    compared = 0
    for q in queries:
        terms = [t for t in dict.fromkeys(tokens(q)) if t in vocab]
        expected = referee.get_scores([vocab[t] for t in terms])
        ours = index.scores(q)
        for doc, want in enumerate(expected):
            assert ours.get(doc, 0.0) == pytest.approx(float(want), abs=2e-5), (q, doc)
            compared += want > 0
    assert compared > 50  # the queries hit many documents


def _vocab_ids(corpus: list[list[str]]) -> tuple[list[list[int]], dict[str, int]]:
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(t, len(vocab)) for t in doc] for doc in corpus]
    return ids, vocab


def test_the_index_is_byte_stable_json() -> None:
    definitions = _definitions(50)
    a = json.dumps(build_index(definitions), sort_keys=True)
    assert a == json.dumps(build_index(definitions), sort_keys=True)
    assert SearchIndex(a).names == [d["name"] for d in definitions]


def test_a_search_over_500_tools_costs_under_a_millisecond_of_cpu() -> None:
    definitions = _definitions(500)
    index = SearchIndex(json.dumps(build_index(definitions)))
    names = [str(d["name"]) for d in definitions]
    queries = ["list the invoices of a user", "delete a repo", "export the weather report"] * 100
    start = time.process_time()
    for q in queries:
        index.top(q, names, 5)
    per_query = (time.process_time() - start) / len(queries)
    assert per_query < 0.001, f"{per_query * 1e6:.0f} µs per query"


def test_the_server_rebuilds_an_index_another_stemmer_wrote() -> None:
    """A package generated with another snowballstemmer than the server has: the server scores
    with an index of its own stems, not the package's."""
    from types import SimpleNamespace

    from mcpgen_runtime.server.discovery_modes import Discoverer, DiscoveryConfig

    definitions = _definitions(8)
    tools = [SimpleNamespace(definition=d) for d in definitions]
    stale = {**build_index(definitions), "stemmer": "0.0.1", "terms": {}}
    found = Discoverer(DiscoveryConfig({"mode": "search"}), stale).index(tools)
    assert found.terms == build_index(definitions)["terms"]
    kept = Discoverer(DiscoveryConfig({"mode": "search"}), build_index(definitions[:2]))
    assert kept.index(tools).names == [d["name"] for d in definitions[:2]]
