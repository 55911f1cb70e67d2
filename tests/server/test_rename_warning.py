"""After a tool rename (issue 50), the warning about an import of a model that no longer exists
does not blame the runtime's move and names the model's new name."""

from __future__ import annotations

from mcpgen.server.handlers_report import broken_imports

SOURCE = "from ._generated.models import GetWeatherInput\n"


def test_a_renamed_tool_s_model_is_named_and_the_runtime_not_blamed() -> None:
    have = {"models": {"GetForecastInput", "GetForecastOutput"}}
    (b,) = broken_imports(SOURCE, "pkg", lambda sub: have.get(sub), {"ToolContext"})
    assert not b.to_runtime
    assert b.replacement == (
        "GetWeatherInput: not in _generated.models any more (renamed or removed tool?); "
        "_generated.models has GetForecastInput now"
    )


def test_a_name_the_runtime_took_says_so() -> None:
    (b,) = broken_imports(
        "from ._generated.models import ToolContext\n", "pkg", lambda sub: set(), {"ToolContext"}
    )
    assert b.to_runtime and b.replacement == "from mcpgen_runtime import ToolContext"
