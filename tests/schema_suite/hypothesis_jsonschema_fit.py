"""hypothesis-jsonschema where it fits: valid instances of a suite schema that it can read (no
references, identifiers, ``unevaluated*`` or ``$dynamic*``; it knows drafts 4 to 7 and some
2019-09), else none."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

_UNFIT = ('"$ref"', '"$id"', '"$anchor"', '"$dynamic', '"unevaluated', '"$schema"', '"$defs"')
_UNFIT += ('"dependentSchemas"', '"dependentRequired"', '"prefixItems"', '"minContains"')
_UNFIT += ('"maxContains"', '"format"', '"pattern')


def maybe_valid(schema: Any) -> st.SearchStrategy[list[Any]]:
    text = json.dumps(schema)
    if not isinstance(schema, dict) or any(k in text for k in _UNFIT):
        return st.just([])
    try:
        from hypothesis_jsonschema import from_schema

        strategy = from_schema(schema)
        strategy.validate()
    except Exception:  # noqa: BLE001 (a schema it cannot read, or unsatisfiable)
        return st.just([])
    return st.lists(strategy, max_size=2)
