"""The common shape of tool arguments and results, recognised in one cheap pass.

Most calls carry a flat object of short scalars (``{"city": "Paris", "days": 3}``). For
those, the runtime skips what only other values need: serialising the arguments to measure
them against the size limit, and walking them for what jsonschema-rs would misread
(``validation._vet``). Kept free of heavy imports: the call path imports it before the
validation module.
"""

from __future__ import annotations

from typing import Any

__all__ = ["flat_scalar_bound"]

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
