"""``mcpgen client``: golden files, byte stability, mypy --strict, CLI behaviour, docstrings."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.client.build import render_client
from mcpgen.client.ir import RESERVED_METHODS
from mcpgen.render import docstring
from tests.client.helpers import REPO, WEATHER, mcpgen, mcpgen_cmd
from tests.client.regen_golden import GOLDEN, golden_files
from tests.mypy_cache import strict_args


def test_golden_weather_client() -> None:
    """Regenerate with `python -m tests.client.regen_golden` (and review the diff)."""
    files = golden_files()
    on_disk = {
        p.relative_to(GOLDEN).as_posix(): p.read_text(encoding="utf-8")
        for p in GOLDEN.rglob("*")
        if p.is_file()
    }
    assert files == on_disk


def test_generation_is_byte_stable() -> None:
    a = render_client(WEATHER, "weather_client")
    b = render_client(WEATHER, "weather_client")
    assert a.owned == b.owned and a.user == b.user and a.digest == b.digest


@pytest.mark.parametrize("kind", ["client", "server"])
def test_the_layout_lists_every_template_of_its_kind(kind: str) -> None:
    """One list per package kind (``mcpgen/<kind>/layout.py``): what the generator renders is
    what the no-op digest covers, and a template file nobody lists is an error."""
    import importlib

    from mcpgen.resources import templates_dir

    layout = importlib.import_module(f"mcpgen.{kind}.layout")
    on_disk = sorted(f"{kind}/{p.name}" for p in (templates_dir() / kind).glob("*.jinja"))
    assert list(layout.TEMPLATES) == on_disk
    assert layout.USER_FILES == tuple(layout.USER_TEMPLATES)


def test_reserved_method_names_are_the_runtime_public_attributes() -> None:
    from mcpgen_runtime import ToolClient

    public = {
        n
        for n in dir(ToolClient)
        if not n.startswith("_") and not n.isupper() and n != "MCPGEN_TOOLS"
    }
    # plus the namespaces a generated client adds when its manifest has resources or prompts
    assert public | {"resources", "prompts"} == set(RESERVED_METHODS)


def test_weather_client_shape() -> None:
    text = (GOLDEN / "_generated" / "client.py").read_text()
    tree = ast.parse(text)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    assert list(classes) == ["WeatherClientResources", "WeatherClientPrompts", "WeatherClient"]
    cls = classes["WeatherClient"]
    methods = {n.name: n for n in cls.body if isinstance(n, ast.AsyncFunctionDef)}
    assert list(methods) == ["get_weather", "get_forecast", "weather_map", "report_outage"]
    gw = methods["get_weather"]
    assert [a.arg for a in gw.args.kwonlyargs] == ["city", "units"]
    assert ast.unparse(gw.args.kwonlyargs[1].annotation) == "Literal['metric', 'imperial'] | None"
    assert [ast.unparse(d) if d else None for d in gw.args.kw_defaults] == [None, "'metric'"]
    assert ast.unparse(gw.returns) == "_m.GetWeatherOutput"
    assert ast.unparse(methods["weather_map"].returns) == "_rt.CallResult"
    assert 'City name, e.g. "Paris".' in (ast.get_docstring(gw) or "")
    # the generated package holds only manifest-dependent code (4 tools, 1 resource, 1 template,
    # 1 prompt)
    lines = sum(len(p.read_text().splitlines()) for p in (GOLDEN / "_generated").glob("*.py"))
    assert lines < 400


def test_mypy_strict_on_generated_weather_client(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            *strict_args(tmp_path_factory, tmp_path),
            "-p",
            "weather_client",
        ],
        capture_output=True,
        text=True,
        cwd=GOLDEN.parent,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cli_writes_then_noop_then_check(tmp_path: Path) -> None:
    args = ["client", str(WEATHER), "--out", str(tmp_path), "--package", "wc"]
    first = subprocess.run([*mcpgen_cmd(), *args], capture_output=True, text=True)  # a process
    assert first.returncode == 0, first.stderr
    assert "wrote" in first.stderr
    gen = tmp_path / "wc" / "_generated"
    assert (gen / "client.py").read_text() == (GOLDEN / "_generated" / "client.py").read_text()
    again = mcpgen(*args)
    assert again.returncode == 0 and "up to date" in again.stderr
    assert mcpgen(*args, "--check").returncode == 0
    (gen / "client.py").write_text("# edited\n")
    # the digest still matches, so corrupt the marker to force a comparison
    (gen / ".mcpgen.json").write_text("{}")
    stale = mcpgen(*args, "--check")
    assert stale.returncode == 1 and "+# edited" not in stale.stdout and "-# edited" in stale.stdout
    assert "out of date" in stale.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["client", "missing.yaml", "--out", "x", "--package", "p"], "cannot read manifest"),
        (["client", str(WEATHER), "--out", "x", "--package", "class"], "keyword"),
        (["client", str(WEATHER), "--out", "x", "--package", "2abc"], "identifier"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    proc = mcpgen(*args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcpgen: error:") and message in lines[0]


def test_help_does_not_import_generators() -> None:
    code = (
        "import sys; from mcpgen.cli import main\n"
        "try:\n main(['--help'])\nexcept SystemExit: pass\n"
        "heavy = ('jinja2', 'datamodel_code_generator', 'mcp', 'yaml')\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in heavy"
        " or m.startswith('mcpgen.client')]\n"
        "print(bad); assert not bad"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr


HOSTILE = [
    '"""',
    "'''",
    "\\",
    '"',
    '\\"""',
    "\n",
    "\r",
    "\x00",
    "\u2028",
    "\ud800",
    "\t",
    "end\\",
    'x"',
    "__import__('os').system('touch PWNED')",
    "{{ x }}",
    "#",
    "é天",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=5)), max_size=8).map("".join),
    st.sampled_from([0, 4, 8]),
)
def test_docstring_filter_cannot_be_broken(text: str, indent: int) -> None:
    lit = docstring(text, indent)
    src = "def f():\n" + " " * max(indent, 4) + lit + "\n" + " " * max(indent, 4) + "return 1\n"
    tree = ast.parse(src)
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef) and len(fn.body) == 2  # nothing escaped the literal
    value = ast.literal_eval(lit)
    # same text up to the indentation of continuation lines and trailing whitespace
    norm = lambda s: [ln.strip() for ln in s.strip().splitlines() if ln.strip()]  # noqa: E731
    assert norm(value) == norm(text.strip().replace("\r", "")) or "\r" in text or "\u2028" in text


def test_edge_schemas_generate_typed_methods(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A root ``anyOf`` input (RootModel: one ``arguments`` dict), formats, arrays, unions,
    nullable types, an array outputSchema (2026-07-28) and a tool without parameters."""
    from tests.client.helpers import imported, write_client

    manifest = Path(__file__).resolve().parent / "data" / "edge_schemas.json"
    write_client(manifest, tmp_path, "edge_client")
    proc = subprocess.run(
        [
            sys.executable,
            *strict_args(tmp_path_factory, tmp_path),
            "-p",
            "edge_client",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import inspect

    with imported(tmp_path, "edge_client") as module:
        cls = module.EdgeClient
        assert list(inspect.signature(cls.either).parameters) == ["self", "arguments"]
        listing = inspect.signature(cls.listing)
        assert list(listing.parameters) == ["self", "when", "tags", "u", "nullable"]
        assert listing.return_annotation == "_m.ListingOutput"
        assert list(inspect.signature(cls.noargs).parameters) == ["self"]


@pytest.mark.parametrize(
    "step, fix", [((0, 99), "upgrade the runtime"), ((-1, 0), "regenerate it")]
)
def test_runtime_api_mismatch_fails_at_import_with_one_line(
    tmp_path: Path, step: tuple[int, int], fix: str
) -> None:
    from tests.client.helpers import write_client

    pkg = write_client(WEATHER, tmp_path, "weather_api_client")
    init = pkg / "_generated" / "__init__.py"
    from mcpgen_runtime import API_VERSION

    needed = (API_VERSION[0] + step[0], API_VERSION[1] + step[1])

    text = init.read_text()
    current = f"RUNTIME_API: Final = {API_VERSION}"
    assert current in text
    init.write_text(text.replace(current, f"RUNTIME_API: Final = {needed}"))
    proc = subprocess.run(
        [sys.executable, "-c", "import weather_api_client"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: weather_api_client was generated by mcpgen")
    assert f"API {needed[0]}.{needed[1]}" in last and fix in last
