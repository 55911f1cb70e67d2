"""pydantic's work on the call path without the wrappers around it, one named function each.

``BaseModel.model_validate`` and ``model_dump`` check their options and build a call each time
before reaching the compiled validator and serializer; on a call path this short the wrapper
shows (``bench/bench_server.py --instructions``: instructions per ``tools/call``). Each
function here does exactly what its wrapper would, and says which.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["dump_json", "validate"]

M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], data: Any) -> M:
    """``model.model_validate(data)``."""
    # the compiled validator, minus model_validate's wrapper: bench/bench_server.py --instructions
    validated: M = model.__pydantic_validator__.validate_python(data)
    return validated


def dump_json(value: BaseModel) -> Any:
    """``value.model_dump(mode="json", by_alias=True, exclude_unset=True)``."""
    # the compiled serializer, minus model_dump's wrapper: bench/bench_server.py --instructions
    return type(value).__pydantic_serializer__.to_python(
        value, mode="json", by_alias=True, exclude_unset=True
    )
