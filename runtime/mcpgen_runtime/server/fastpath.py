"""pydantic's work on the call path without the wrappers around it, one named function each.

``BaseModel.model_validate`` and ``model_dump`` check their options and build a call each time
before reaching the compiled validator and serializer; on a call path this short the wrapper
shows (``bench/bench_server.py --instructions``: instructions per ``tools/call``). Each
function here does exactly what its wrapper would, and says which.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # a model is pydantic's; these functions never import it themselves
    from pydantic import BaseModel

__all__ = ["dump_json", "is_model", "is_validation_error", "model_text", "validate"]

M = TypeVar("M", bound="BaseModel")


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


def is_validation_error(exc: BaseException) -> bool:
    """Whether ``exc`` is pydantic's ``ValidationError``: asked only after a model raised, so
    pydantic is loaded by then (a server whose handlers take no models never imports it)."""
    from pydantic import ValidationError

    return isinstance(exc, ValidationError)


def is_model(value: object) -> bool:
    """``isinstance(value, pydantic.BaseModel)``, without importing pydantic: while it is not
    loaded, nothing is a model."""
    main = sys.modules.get("pydantic.main")
    return main is not None and isinstance(value, main.BaseModel)


_to_json: Any = None


def model_text(structured: Any) -> bytes:
    """pydantic-core's ``to_json(structured)``, for what a model dumped (so pydantic is loaded;
    bound on first use: no import statement per call)."""
    global _to_json
    if _to_json is None:
        from pydantic_core import to_json

        _to_json = to_json
    text: bytes = _to_json(structured)
    return text
