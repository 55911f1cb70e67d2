"""Differential fuzzing (issue 51): random schemas built from the JSON-Schema-Test-Suite's own
2020-12 schemas (nested under ``properties``, ``items``, ``allOf``/``anyOf``/``oneOf``, with or
without ``type``), random instances built from the suite's case data (and, where the schema
fits it, drawn by hypothesis-jsonschema); the validator's verdict (jsonschema-rs on the
inputSchema) must be the generated server's and the typed client's.

Fixed seed (``derandomize``), a few packages of many tools each, and a time budget: well under
a minute here.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mcpgen_runtime.server.validation import SchemaCheck
from tests.schema_suite.hypothesis_jsonschema_fit import maybe_valid
from tests.schema_suite.suite import (
    PARAM,
    client_verdict,
    generated,
    generated_client,
    load_groups,
    manifest_text,
    server_verdict,
    skip_reason,
    suite_dir,
    tool_entry,
)

TOOLS_PER_PACKAGE = 40
PACKAGES = int(os.environ.get("MCPGEN_FUZZ_PACKAGES", "12"))
"""Packages per run; ``MCPGEN_FUZZ_PACKAGES=60`` explores further, with a random seed."""
_ROOT = suite_dir()
# the local groups (remote ones are check's refusals, tested elsewhere)
GROUPS = (
    [
        (g["schema"], [c["data"] for c in g["tests"]])
        for f, g in load_groups(_ROOT, "draft2020-12")
        if skip_reason(f, g) is None
        and "localhost:1234" not in json.dumps(g["schema"])
        and "json-schema.org/draft/2020-12/schema" not in json.dumps(g["schema"])
    ]
    if _ROOT is not None
    else []
)
_uid = itertools.count()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-3, 3) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def leaf(draw: st.DrawFn) -> tuple[Any, list[Any]]:
    schema, datas = draw(st.sampled_from(GROUPS)) if GROUPS else (True, [None])
    return schema, datas + draw(st.lists(JSON, max_size=2))


@st.composite
def pair(draw: st.DrawFn, depth: int = 0) -> tuple[Any, list[Any]]:
    """A schema and instances for it (valid or not: the validator says)."""
    if depth >= 2 or draw(st.booleans()):
        schema, datas = draw(leaf())
        return _embedded(schema), datas + draw(maybe_valid(schema))
    kind = draw(st.sampled_from(["properties", "items", "allOf", "anyOf", "oneOf"]))
    a, adatas = draw(pair(depth + 1))
    b, bdatas = draw(pair(depth + 1))
    typed = draw(st.booleans())
    if kind == "properties":
        schema: dict[str, Any] = {"properties": {"a": a, "b": b}}
        if draw(st.booleans()):
            schema["required"] = ["a"]
        datas = (
            [{"a": x, "b": y} for x, y in zip(adatas, bdatas, strict=False)]
            + [{"a": x} for x in adatas[:2]]
            + [{"b": y, "c": 1} for y in bdatas[:2]]
        )
        datas += [x for x in adatas[:1]]  # not an object, often
        if typed:
            schema["type"] = "object"
    elif kind == "items":
        schema = {"items": a}
        datas = [adatas[:2], adatas[:1], list(adatas), {"0": 1}, adatas[0] if adatas else None]
        if typed:
            schema["type"] = "array"
    else:
        schema = {kind: [a, b]}
        datas = adatas + bdatas
    return schema, datas


def _embedded(schema: Any) -> Any:
    if isinstance(schema, dict) and "$id" not in schema:
        return {"$id": f"urn:mcpgen-fuzz:{next(_uid)}", **schema}
    return schema


def _check(tmp: Path, cases: list[tuple[Any, list[Any]]], n: int) -> list[str]:
    tools = [tool_entry(f"f{i:03d}", s, f"f{i}") for i, (s, _d) in enumerate(cases)]
    text = manifest_text(tools)
    wrong: list[str] = []
    package = f"fuzz_{n}"
    with (
        generated(text, tmp, package) as server,
        generated_client(text, tmp, package + "_client") as (ctools, cmodels),
    ):
        by_name = {t.name: t for t in ctools.TOOLS}
        for binding, (schema, datas) in zip(server.BINDINGS, cases, strict=True):
            definition = json.loads(binding.definition_json)
            check = SchemaCheck(definition["inputSchema"], binding.input_dialect)
            ctool = by_name[definition["name"]]
            cmodel = getattr(cmodels, binding.input_model.__name__)
            for data in datas:
                truth = check.problems({PARAM: data}) == []
                got = (server_verdict(binding, data), client_verdict(ctool, cmodel, data))
                if got != (truth, truth):
                    wrong.append(
                        f"{json.dumps(schema)[:300]} | {json.dumps(data)[:100]}: "
                        f"validator {truth}, server/client {got}"
                    )
    return wrong


_packages = itertools.count()


@settings(
    derandomize="MCPGEN_FUZZ_PACKAGES" not in os.environ,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: the report lists each case
    max_examples=PACKAGES,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(pair(), min_size=TOOLS_PER_PACKAGE, max_size=TOOLS_PER_PACKAGE))
def _fuzz(tmp: Path, cases: list[tuple[Any, list[Any]]]) -> None:
    wrong = _check(tmp, cases, next(_packages))
    assert wrong == [], "\n".join(wrong[:10])


def test_validator_server_and_client_agree_on_random_schemas_and_instances(
    suite_root: Path, tmp_path: Path, no_network: list[str]
) -> None:
    _fuzz(tmp_path)
    assert no_network == []
