"""``refcycles``: cycles with nothing in between, among a schema's own ``$defs``
(``own_def_cycles``) and among the schemas bundling copies in (``copied_cycles``)."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen.manifest.refcycles import copied_cycles, own_def_cycles

P = "/tools/0/inputSchema"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


@pytest.mark.parametrize(
    ("defs", "want"),
    [
        ({"A": _ref("B"), "B": _ref("A")}, [(["A", "B", "A"], f"{P}/$defs/B/$ref")]),
        ({"A": _ref("A")}, [(["A", "A"], f"{P}/$defs/A/$ref")]),
        (
            {
                "A": {"allOf": [{"type": "object"}, _ref("B")]},
                "B": {"not": _ref("C")},
                "C": _ref("A"),
            },
            [(["A", "B", "C", "A"], f"{P}/$defs/C/$ref")],
        ),
        # an escaped name ("a/b" is "a~1b" in a pointer)
        ({"a/b": {"$ref": "#/$defs/a~1b"}}, [(["a/b", "a/b"], f"{P}/$defs/a~1b/$ref")]),
        # a branch that leads off the cycle first, then back
        ({"A": {"anyOf": [_ref("D"), _ref("B")]}, "B": _ref("A"), "D": {"type": "string"}}, None),
    ],
)
def test_cycles_found(defs: dict[str, Any], want: Any) -> None:
    got = own_def_cycles(defs, P)
    if want is None:
        assert [names for names, _ in got] in ([["A", "B", "A"]],), got
    else:
        assert got == want


@pytest.mark.parametrize(
    "defs",
    [
        # recursion through structure: each step is a smaller instance, validation ends
        {
            "Tree": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": _ref("Tree")}},
            }
        },
        {"A": {"properties": {"b": _ref("B")}}, "B": _ref("A")},
        # a chain without a cycle, a ref to nowhere (REF_UNRESOLVED's, not this check's)
        {"A": _ref("B"), "B": {"type": "string"}},
        {"A": _ref("Missing")},
    ],
)
def test_no_cycle(defs: dict[str, Any]) -> None:
    assert own_def_cycles(defs, P) == []


def test_copied_cycles_one_per_cycle_with_the_closing_ref() -> None:
    """A -> B -> A is one cycle (reported from A, B starts none), C -> C another; D's edge
    leads into the cycle without closing one of its own."""
    direct = {
        "A": [("B", "ctx-a", "/a/$ref")],
        "B": [("A", "ctx-b", "/b/$ref")],
        "C": [("C", "ctx-c", "/c/$ref")],
        "D": [("A", "ctx-d", "/d/$ref")],
    }
    assert copied_cycles(direct) == [
        (["A", "B"], "ctx-b", "/b/$ref"),
        (["C"], "ctx-c", "/c/$ref"),
    ]


def test_copied_cycles_none_without_a_way_back() -> None:
    assert copied_cycles({"A": [("B", None, "/a")], "B": [("C", None, "/b")]}) == []
