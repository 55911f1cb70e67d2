"""``flat_scalar_bound`` and ``plain_json_text``: the cheap recognition of values the call
path need not measure or vet. The bound must never under-estimate a size, and both must
refuse everything ``validation._vet`` exists for."""

from __future__ import annotations

import json
import math

from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json

from mcpgen_runtime.server.flat import flat_scalar_bound, plain_json_text
from mcpgen_runtime.server.validation import SchemaCheck, _vet

SCALARS = (
    st.text()
    | st.booleans()
    | st.none()
    | st.integers(min_value=-(10**20) + 1, max_value=10**20 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
)


@given(st.dictionaries(st.text(), SCALARS, max_size=64))
def test_bound_is_never_below_the_compact_json_size(value: dict[str, object]) -> None:
    bound = flat_scalar_bound(value)
    assert bound is not None
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= bound  # the limit's measure: compact UTF-8 JSON, as the runtime counts


def test_everything_else_takes_the_general_path() -> None:
    refused = [
        None,
        [1, 2],
        "text",
        {"a": {"b": 1}},
        {"a": [1]},
        {"a": math.nan},
        {"a": math.inf},
        {"a": -math.inf},
        {"a": 10**20},
        {"a": -(10**20)},
        {1: "non-string key"},
        {f"k{i}": i for i in range(65)},
        {"a": b"bytes"},
        {"a": (1,)},
    ]
    for value in refused:
        assert flat_scalar_bound(value) is None, value
    assert flat_scalar_bound({}) == 2
    assert flat_scalar_bound({"a": True, "b": None, "c": 1.5, "d": "x"}) is not None


def test_what_it_accepts_validates_the_same_vetted_or_not() -> None:
    check = SchemaCheck(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string"}},
            "required": ["n"],
        },
        "2020-12",
    )
    for value in ({"n": 3, "s": "x"}, {"n": 7}, {"s": "x"}, {"n": 10**19}, {"n": 2.5}):
        assert flat_scalar_bound(value) is not None
        assert check.problems(value, vetted=True) == check.problems(value)


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities included
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=30,
)


@given(JSONISH)
def test_plain_json_text_never_skips_a_vet_that_would_fail(value: object) -> None:
    if plain_json_text(to_json(value)):
        _vet(value)  # must not raise


def test_plain_json_text_refuses_what_vet_exists_for() -> None:
    deep: object = 1
    for _ in range(200):
        deep = [deep]
    for value in (math.nan, {"x": math.inf}, [-math.inf], 10**300, deep, "x" * 300):
        assert not plain_json_text(to_json(value)), value
    assert plain_json_text(to_json({"sum": 3, "city": "Paris", "ok": True, "r": 1.5}))
