"""``json_text`` and ``plain_json``: how a handler's JSON data becomes a result without
pydantic. ``json_text`` must write exactly what pydantic-core's ``to_json`` writes for JSON
data (the text mirror is the same bytes whichever path made it), and ``plain_json`` must
accept only values ``to_jsonable_python`` would give back unchanged."""

from __future__ import annotations

import datetime
import enum
import math

from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json, to_jsonable_python

from mcpgen_runtime.server.flat import json_text, plain_json

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(JSON)
def test_json_text_writes_what_pydantic_core_writes(value: object) -> None:
    assert json_text(value) == to_json(value)


@given(JSON)
def test_json_data_is_plain_and_unchanged_by_pydantic(value: object) -> None:
    assert plain_json(value)
    assert to_jsonable_python(value) == value


def test_what_orjson_refuses_is_written_by_pydantic_core() -> None:
    big = {"n": 10**30}
    assert json_text(big) == to_json(big)


class Colour(enum.Enum):
    RED = "red"


def test_values_pydantic_converts_are_not_plain() -> None:
    for value in (
        {"when": datetime.date(2026, 11, 28)},
        {"colour": Colour.RED},
        {"pair": (1, 2)},
        {1: "a"},
        [math.nan],
        {"x": math.inf},
        {"set": {1}},
    ):
        assert not plain_json(value), value


def test_nesting_deeper_than_256_is_not_plain() -> None:
    deep: object = 1
    for _ in range(300):
        deep = [deep]
    assert not plain_json(deep)
    shallow: object = 1
    for _ in range(200):
        shallow = {"a": shallow}
    assert plain_json(shallow)


def test_the_public_names_are_the_stubs() -> None:
    """``mcpgen_runtime`` reads ``__init__.pyi`` itself (no ``ast``): the same names, from the
    same modules, as ``lazy_loader.attach_stub`` reads."""
    import lazy_loader

    import mcpgen_runtime

    _get, _dir, names = lazy_loader.attach_stub("mcpgen_runtime", mcpgen_runtime.__file__)
    assert sorted(names) == sorted(mcpgen_runtime.__all__)
    for name in ("ToolResult", "ToolBinding", "__version__", "TextContent"):
        assert getattr(mcpgen_runtime, name) is _get(name)
