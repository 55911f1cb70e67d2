"""The common shapes of tool arguments and results, recognised cheaply.

Most calls carry a flat object of short scalars (``{"city": "Paris", "days": 3}``), and most
results are small. For those, the runtime skips what only other values need: serialising the
arguments to measure them against the size limit, and walking arguments and results for
what jsonschema-rs would misread (``validation._vet``). Kept free of heavy imports: the call
path imports it before the validation module.
"""

from __future__ import annotations

from typing import Any

try:
    from orjson import dumps as _orjson_dumps
except ImportError:  # pragma: no cover - the [server] extra is not installed
    _orjson_dumps = None  # type: ignore[assignment]

__all__ = ["flat_scalar_bound", "json_text", "plain_json", "plain_json_text"]

_SMALL_INT = 10**20


def flat_scalar_bound(value: Any) -> int | None:
    """For an object of at most 64 members that are strings, booleans, nulls, ints below
    1e20 or finite floats (most tool arguments and results): an upper bound of its compact
    JSON size in UTF-8 bytes. Such a value needs no ``validation._vet`` (nothing jsonschema-rs
    misreads, depth 1). None for anything else."""
    if type(value) is not dict or len(value) > 64:
        return None
    total = 2
    for key, item in value.items():
        kind = type(item)
        if kind is str:
            total += 6 * len(item) + 2  # JSON escapes: at most 6 bytes per character
        elif kind is int:
            if not -_SMALL_INT < item < _SMALL_INT:
                return None
            total += 21
        elif kind is bool or item is None:
            total += 5
        elif kind is float:
            if item - item != 0.0:  # NaN or an infinity
                return None
            total += 24
        else:
            return None
        if type(key) is not str:
            return None
        total += 6 * len(key) + 4
    return total


def plain_json_text(text: bytes) -> bool:
    """Whether a value whose JSON text (pydantic-core's ``to_json``) is ``text`` needs no
    ``validation._vet``: at most 256 bytes (so nested at most 128 deep, and no int near the
    digit limits), without ``NaN`` or ``Infinity`` (how pydantic-core writes non-finite
    floats). A string that merely contains those words only costs the full vet."""
    # two substring searches, not a regular expression: bench/bench_server.py --instructions
    return len(text) <= 256 and b"NaN" not in text and b"Infinity" not in text


def plain_json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON data as it is: dicts with string keys, lists, strings, ints,
    finite floats, booleans and None, nested at most 256 deep. Such a value needs no conversion
    (pydantic-core's ``to_jsonable_python`` would give an equal one)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is float:
        finite: bool = value - value == 0.0  # not NaN or an infinity
        return finite
    if depth > 256:
        return False
    if kind is dict:
        return all(type(k) is str and plain_json(v, depth + 1) for k, v in value.items())
    if kind is list:
        return all(plain_json(v, depth + 1) for v in value)
    return False


def json_text(value: Any) -> bytes:
    """Compact JSON text in UTF-8, as pydantic-core's ``to_json`` writes JSON data: by orjson,
    which writes it byte for byte alike (tests/runtime/test_json_text.py), and by pydantic-core
    for what orjson refuses (integers past 64 bits, lone surrogates). A float that is not
    finite is written ``null`` (pydantic-core: ``NaN``; neither is JSON)."""
    if _orjson_dumps is not None:
        try:
            return _orjson_dumps(value)
        except TypeError:  # orjson.JSONEncodeError
            pass
    from pydantic_core import to_json

    return to_json(value)
