from __future__ import annotations

import keyword

from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.naming import (
    assign_tool_names,
    class_name_from,
    is_safe_identifier,
    package_name_problem,
)


def test_spec_examples_and_awkward_names() -> None:
    names = assign_tool_names(
        [
            "admin.tools.list",
            "get-user",
            "getUser",
            "class",
            "2fa",
            "DATA_EXPORT_v2",
            "café",
            "天气",
            "__init__",
            "match",
        ]
    )
    got = {n.tool_name: (n.method_name, n.class_stem) for n in names}
    assert got["admin.tools.list"] == ("admin_tools_list", "AdminToolsList")
    assert got["get-user"] == ("get_user", "GetUser")
    assert got["getUser"] == ("get_user_2", "GetUser2")  # collides with get-user after mangling
    assert got["class"] == ("class_", "Class")
    assert got["2fa"] == ("tool_2fa", "Tool2fa")
    assert got["DATA_EXPORT_v2"] == ("data_export_v2", "DataExportV2")
    assert got["café"] == ("cafe", "Cafe")
    assert got["天气"][0].startswith("tool_") and is_safe_identifier(got["天气"][0])
    assert got["__init__"] == ("init", "Init")
    assert got["match"] == ("match_", "Match")


def test_appending_a_tool_never_renames_existing_ones() -> None:
    before = assign_tool_names(["a-b", "a_b"])
    after = assign_tool_names(["a-b", "a_b", "a.b"])
    assert after[:2] == before


def test_stems_cannot_shadow_hoisted_model_names() -> None:
    # "x" hoists models named XInput<Def>; a tool named "x_input_foo" must not take XInputFoo.
    names = assign_tool_names(["x", "x_input_foo", "x_output"])
    stems = [n.class_stem for n in names]
    assert stems[0] == "X"
    assert not stems[1].startswith("XInput") and not stems[2].startswith("XOutput")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=12), min_size=1, max_size=12))
def test_any_names_give_unique_safe_identifiers(raw: list[str]) -> None:
    names = assign_tool_names(raw)
    methods = [n.method_name for n in names]
    stems = [n.class_stem for n in names]
    assert len(set(methods)) == len(methods)
    assert len(set(stems)) == len(stems)
    for m, s in zip(methods, stems, strict=True):
        assert is_safe_identifier(m) and not keyword.issoftkeyword(m)
        assert is_safe_identifier(s) and s[0].isupper()
    assert assign_tool_names(raw) == names  # stable


def test_package_and_class_names() -> None:
    assert package_name_problem("weather_server") is None
    assert package_name_problem("class") is not None
    assert package_name_problem("2x") is not None
    assert package_name_problem("a-b") is not None
    assert package_name_problem("mcp") is not None
    assert class_name_from("weather-server", suffix="ToolsBase") == "WeatherServerToolsBase"
    assert class_name_from("42", suffix="Base", fallback="Server") == "Server42Base"
