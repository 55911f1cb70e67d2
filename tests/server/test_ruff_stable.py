"""Generated server packages are stable under their own pinned formatter.

``mcpgen server`` formats the rendered package with the pinned ``ruff format`` alone
(``mcpgen.format.format_tree``); it need not equal what another formatter prints (the README
tells users of black how to exclude ``_generated/``). These tests format the output again with
the same ruff and require it to change nothing, over bundled, factory, long-name, hostile and
random manifests.
"""

from __future__ import annotations

import ast
import difflib
import io
import json
import random
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen.format import format_python, format_tree
from mcpgen.pystyle import literal, str_literal
from mcpgen.typegen import generate_tool_models
from tests.server.helpers import DATA, REPO, WEATHER, render_package
from tests.server.test_hostile import manifest as hostile_manifest


def factory_yaml(n_tools: int, seed: int) -> str:
    """``bench/manifest_factory.py``'s manifest as YAML, made in a child process: imported here,
    the factory's constants would join the pool Hypothesis draws examples from in every later
    test of the session (it harvests constants from local modules), shifting the derandomized
    examples of unrelated tests."""
    code = (
        "import sys; sys.path.insert(0, 'bench')\n"
        "from manifest_factory import dump_yaml, make_manifest\n"
        f"sys.stdout.write(dump_yaml(make_manifest({n_tools}, {seed})))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    return proc.stdout


MANIFESTS = {
    "weather": WEATHER,
    "bench-add": REPO / "bench" / "add_manifest.yaml",
    "behaviours": DATA / "behaviours.yaml",
    "hostile": DATA / "hostile.json",
}


def _package_files(manifest: Path, package: str) -> dict[str, str]:
    files = render_package(manifest, package)
    out = {f"_generated/{rel}": text for rel, text in files.owned.items()}
    out.update(files.user)
    return {rel: text for rel, text in out.items() if rel.endswith(".py")}


def reformat(text: str) -> str:
    """``text`` formatted again by the pinned ruff, exactly as generation formats it."""
    return format_tree({"again.py": text})["again.py"]


def _black_problems(files: dict[str, str]) -> list[str]:
    problems = []
    for rel, text in sorted(files.items()):
        formatted = reformat(text)
        if formatted != text:
            diff = difflib.unified_diff(
                text.splitlines(),
                formatted.splitlines(),
                f"{rel} (generated)",
                f"{rel} (ruff again)",
                lineterm="",
                n=1,
            )
            problems.append("\n".join(list(diff)[:40]))
    return problems


@pytest.mark.parametrize("name", sorted(MANIFESTS))
def test_bundled_manifests_are_black_clean(name: str) -> None:
    files = _package_files(MANIFESTS[name], "pkg_" + name.replace("-", "_"))
    assert "_generated/models.py" in files and "handlers.py" in files
    problems = _black_problems(files)
    assert not problems, "\n\n".join(problems)


def test_factory_manifest_is_black_clean(tmp_path: Path) -> None:
    """40 tools from the benchmark's manifest factory (nested objects, enums, $refs...)."""
    path = tmp_path / "tools.yaml"
    path.write_text(factory_yaml(40, 1), encoding="utf-8")
    files = _package_files(path, "big")
    assert files["_generated/models.py"].count("\nclass ") > 80
    problems = _black_problems(files)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("length", [1, 40, 52, 53, 64, 69, 72, 74, 90, 128])
def test_long_names_are_black_clean(length: int, tmp_path: Path) -> None:
    """Tool and server names of up to 128 characters (the spec's limit) move every generated
    signature, call and annotation across black's splitting thresholds; long metadata strings
    and a description with wide characters move the string lines."""
    name = "t" + "x" * (length - 1)
    tool_out = {"type": "object", "properties": {"x": {"type": "string"}}}
    doc = {
        "server": {
            "name": "s" + "v" * (length - 1),
            "version": "1",
            "title": "T" * length,
            "description": 'q"' * (length // 2),
            "instructions": "i" * length,
        },
        "tools": [
            {
                "name": name,
                "description": "w" * length,
                "outputSchema": tool_out,
                "inputSchema": {"type": "object", "properties": {}},
            },
            {
                "name": name + "_b",
                "description": "天气 " * length,
                "inputSchema": {"type": "object", "properties": {}},
            },
        ],
    }
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    problems = _black_problems(_package_files(path, "pkg"))
    zero = {"server": {"name": "s" * length, "version": "1"}, "tools": []}
    path.write_text(json.dumps(zero), encoding="utf-8")
    problems += _black_problems(_package_files(path, "pkg"))
    assert not problems, "\n\n".join(problems)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=hostile_manifest())
def test_hostile_manifests_are_black_clean(doc: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    problems = _black_problems(_package_files(path, "pkg"))
    assert not problems, "\n\n".join(problems)


# --- models: random schemas -------------------------------------------------------------------

_WORDS = (
    "alpha beta gamma delta city region owner label token page size query limit offset "
    'format the a of to it\'s "quoted" 天气 é'
).split()


def _text(rng: random.Random, low: int, high: int) -> str:
    size = rng.randint(low, high)
    out = ""
    while len(out) < size:
        out += rng.choice(_WORDS) + " "
    return out[:size].strip() or "x"


def _name(rng: random.Random) -> str:
    return "_".join(rng.choice(_WORDS[:14]) for _ in range(rng.choice([1, 2, 3, 8, 14])))


def _schema(rng: random.Random, depth: int) -> dict[str, Any]:
    kinds = ["string", "integer", "number", "boolean", "enum", "intenum", "nullable", "const"]
    if depth < 2:
        kinds += ["object", "array", "strings", "nested", "union", "map"]
    kind = rng.choice(kinds)
    s: dict[str, Any] = {}
    if rng.random() < 0.8:
        s["description"] = _text(rng, 0, 160)
    if kind == "enum":
        s.update(type="string", enum=sorted({_text(rng, 1, 30) for _ in range(rng.randint(1, 6))}))
        if rng.random() < 0.5:
            s["default"] = s["enum"][0]
    elif kind == "intenum":
        s.update(type="integer", enum=sorted({rng.randint(-(10**6), 10**12) for _ in range(5)}))
    elif kind == "nullable":
        s["type"] = [rng.choice(["string", "integer", "number"]), "null"]
    elif kind == "const":
        s["const"] = _text(rng, 1, 60)
    elif kind == "object":
        s.update(_object(rng, depth + 1))
    elif kind == "array":
        s.update(type="array", items=_object(rng, depth + 1))
    elif kind == "strings":
        s.update(type="array", items={"type": "string"})
        if rng.random() < 0.5:
            s["default"] = [_text(rng, 1, 20) for _ in range(rng.randint(0, 4))]
    elif kind == "nested":
        s.update(type="array", items={"type": "array", "items": {"type": "number"}})
    elif kind == "union":
        s["anyOf"] = [_schema(rng, depth + 1) for _ in range(rng.randint(2, 3))]
    elif kind == "map":
        s.update(type="object", additionalProperties={"type": "string"})
        s["default"] = {_text(rng, 1, 15): _text(rng, 0, 40) for _ in range(rng.randint(0, 3))}
    else:
        s["type"] = kind
        if kind == "string" and rng.random() < 0.5:
            s["default"] = _text(rng, 0, 60)
        if kind == "string" and rng.random() < 0.3:
            s.update(maxLength=1024, pattern="^[A-Z]{2}$")
        if kind in ("integer", "number") and rng.random() < 0.5:
            s.update(minimum=0, maximum=rng.choice([10, 1e300, 2.5]))
        if kind == "number" and rng.random() < 0.3:
            s["default"] = rng.choice([0.5, 1e20])
    return s


def _object(rng: random.Random, depth: int) -> dict[str, Any]:
    props = {_name(rng): _schema(rng, depth) for _ in range(rng.randint(0, 6))}
    obj: dict[str, Any] = {"type": "object", "properties": props}
    if props and rng.random() < 0.5:
        obj["required"] = sorted(rng.sample(sorted(props), rng.randint(1, len(props))))
    if rng.random() < 0.3:
        obj["additionalProperties"] = False
    return obj


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_models_of_random_schemas_are_black_clean(seed: int) -> None:
    """Long descriptions, defaults, enums, unions, nested arrays and long property names give
    the field lines every shape black splits differently."""
    rng = random.Random(seed)
    tools = []
    for i in range(3):
        output = _object(rng, 0) if rng.random() < 0.5 else None
        tools.append((f"T{i}" + _name(rng).title().replace("_", ""), _object(rng, 0), output))
    raw = generate_tool_models(tools).source
    source = format_tree({"models.py": raw})["models.py"]
    formatted = reformat(source)
    assert formatted == source, "\n".join(
        difflib.unified_diff(source.splitlines(), formatted.splitlines(), lineterm="", n=1)
    )


# --- string literals --------------------------------------------------------------------------

_NASTY_CHARS = list("'\"\\\n\r\t\x00\x7f\x85 #{}aé天") + [
    "\u2028",
    "\ud800",
    "\udfff",
    "\U0001f600",
    "\u200b",
]
any_text = st.one_of(
    st.text(),
    st.text(st.characters(exclude_categories=())),  # lone surrogates included
    st.text(st.sampled_from(_NASTY_CHARS), max_size=16),
)


@settings(max_examples=400, deadline=None)
@given(value=any_text)
def test_str_literal_is_one_exact_black_stable_literal(value: str) -> None:
    lit = str_literal(value)
    # Exactly one token, a string, that evaluates back to the input: nothing can escape it.
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(lit).readline)
        if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)
    ]
    assert [t.type for t in tokens] == [tokenize.STRING] and tokens[0].string == lit
    assert ast.literal_eval(lit) == value
    assert "\n" not in lit and "\r" not in lit
    # What black would print: double quotes unless they need more escapes.
    source = f"x = {lit}\n"
    assert format_python(source) == source


def test_literal_other_values() -> None:
    assert [literal(v) for v in (None, True, False, 0, -3, 2.5, 1e20, 1e-7)] == [
        "None",
        "True",
        "False",
        "0",
        "-3",
        "2.5",
        "1e20",
        "1e-07",
    ]
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            literal(bad)
    with pytest.raises(TypeError):
        literal(b"bytes")


def test_generation_does_not_import_black(tmp_path: Path) -> None:
    """``mcpgen server`` (the real command) does not import black for ordinary manifests: ruff
    formats them alone (see mcpgen.format)."""
    path = tmp_path / "tools.yaml"
    path.write_text(factory_yaml(5, 3), encoding="utf-8")
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['mcpgen', 'server', {str(path)!r}, '--out', {str(tmp_path / 'out')!r},"
        " '--package', 'pkg']\n"
        "try:\n"
        "    runpy.run_module('mcpgen', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "assert 'black' not in sys.modules, 'black was imported'\n"
        "assert 'datamodel_code_generator' in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "out" / "pkg" / "_generated" / "models.py").is_file()
