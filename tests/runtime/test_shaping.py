"""``shaping``: the typed path builds its result directly; it must be exactly what the
general shaping makes of the same result, on every revision."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mcpgen_runtime.revisions import KNOWN_REVISIONS
from mcpgen_runtime.server.shaping import shape_call_result, text_block, typed_call_result

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@given(structured=JSON, text=st.text(max_size=20))
def test_typed_result_is_the_shaped_general_result(structured: Any, text: str) -> None:
    for version in (*KNOWN_REVISIONS, "1999-01-01"):
        general = shape_call_result(
            {"content": [text_block(text)], "structuredContent": structured}, version
        )
        assert typed_call_result(structured, text, version) == general, version


def test_structured_content_per_revision() -> None:
    """Dropped before 2025-06-18; kept when an object from then on; any value on 2026."""
    kept = {v: "structuredContent" in typed_call_result({"a": 1}, "{}", v) for v in KNOWN_REVISIONS}
    assert kept == {
        "2024-11-05": False,
        "2025-03-26": False,
        "2025-06-18": True,
        "2025-11-25": True,
        "2026-07-28": True,
        "draft": True,
    }
    assert "structuredContent" not in typed_call_result([1], "[1]", "2025-11-25")
    modern = typed_call_result([1], "[1]", "2026-07-28")
    assert modern["structuredContent"] == [1] and modern["resultType"] == "complete"
