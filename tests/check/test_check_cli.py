"""`mcpgen check` / `mcpgen rules` through the real CLI: exit codes, formats, config, ignores."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from manifest_factory import dump_json, dump_yaml, make_manifest  # noqa: E402

from tests.inprocess import mcpgen  # noqa: E402

CLEAN = """\
server: {name: demo, version: 1.0.0}
protocol: [2025-11-25]
tools:
  - name: echo
    description: Echo the text back.
    inputSchema:
      type: object
      properties:
        text: {type: string, description: What to echo.}
      required: [text]
"""
BAD = """\
protocol: [2025-11-25]
tools:
  - name: get weather
    description: Weather.
    annotations: {readonlyHint: true}
    inputSchema:
      type: object
      properties:
        city: {type: string}
"""
TYPO = (
    "bad.yaml:5:19: warning ANNOTATION_FIELD_TYPO unknown annotation 'readonlyHint' (did you "
    "mean 'readOnlyHint'?); clients ignore it, so that hint is not given"
)


def run(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command in this process (tests/inprocess.py): exit code, stdout and stderr as a
    subprocess gives them. The process itself (start-up imports) is tested below."""
    return mcpgen(*args, cwd=cwd, env=env)


@pytest.fixture()
def work(tmp_path: Path) -> Path:
    (tmp_path / "clean.yaml").write_text(CLEAN)
    (tmp_path / "bad.yaml").write_text(BAD)
    return tmp_path


def test_clean_exits_0(work: Path) -> None:
    """Success says what was checked (on stderr); -q says nothing."""
    p = run("check", "clean.yaml", cwd=work)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "mcpgen: no findings in 1 file (1 tool)\n")
    p = run("check", "-q", "clean.yaml", "clean.yaml", cwd=work)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    p = run("check", "-v", "clean.yaml", "clean.yaml", cwd=work)
    assert p.stderr == "mcpgen: no findings in 2 files (2 tools)\n"


def test_findings_exit_1_with_exact_lines(work: Path) -> None:
    p = run("check", "bad.yaml", cwd=work)
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        "bad.yaml:3:11: error TOOL_NAME_CHARSET tool name 'get weather' contains space; "
        "allowed are A-Z a-z 0-9 _ - .",
        TYPO,
    ]
    assert p.stderr == (
        "mcpgen: 1 error, 1 warning in 1 file (1 tool); "
        "1 info finding hidden (--show-info lists them)\n"
    )
    info = (
        "bad.yaml:9:9: info PROPERTY_DESCRIPTION_MISSING parameter 'city' of tool "
        "'get weather' has no description"
    )
    p = run("check", "bad.yaml", "--show-info", cwd=work)
    assert p.stdout.splitlines()[1:] == [TYPO, info]
    assert p.stderr == "mcpgen: 1 error, 1 warning, 1 info in 1 file (1 tool)\n"
    # a run that fails on info lists the infos that fail it
    p = run("check", "bad.yaml", "--fail-on", "info", cwd=work)
    assert info in p.stdout.splitlines()


def test_fail_on_levels(work: Path) -> None:
    assert run("check", "bad.yaml", "--disable", "TOOL_NAME_CHARSET", cwd=work).returncode == 0
    assert (
        run(
            "check", "bad.yaml", "--disable", "TOOL_NAME_CHARSET", "--fail-on", "warning", cwd=work
        ).returncode
        == 1
    )
    assert run("check", "bad.yaml", "--fail-on", "none", cwd=work).returncode == 0


def test_unreadable_file_exit_2_but_others_checked(work: Path) -> None:
    (work / "broken.yaml").write_text("tools: [\n")
    p = run("check", "broken.yaml", "missing.yaml", "bad.yaml", cwd=work)
    assert p.returncode == 2
    lines = p.stdout.splitlines()
    assert any(line.startswith("broken.yaml:") and "INPUT_UNREADABLE" in line for line in lines)
    assert "missing.yaml:1:1: error INPUT_UNREADABLE no such file" in lines
    assert any("TOOL_NAME_CHARSET" in line for line in lines)  # the readable file was still checked
    assert "Traceback" not in p.stderr


def test_usage_errors_exit_2(work: Path) -> None:
    assert run("check", cwd=work).returncode == 2
    p = run("check", "bad.yaml", "--disable", "NO_SUCH_RULE", cwd=work)
    assert p.returncode == 2 and "NO_SUCH_RULE" in p.stderr
    assert run("check", "bad.yaml", "--format", "xml", cwd=work).returncode == 2


def test_json_format(work: Path) -> None:
    p = run("check", "bad.yaml", "--format", "json", cwd=work)
    data = json.loads(p.stdout)
    assert p.returncode == 1
    d = data["diagnostics"][0]
    assert (d["path"], d["line"], d["col"], d["rule_id"], d["severity"]) == (
        "bad.yaml",
        3,
        11,
        "TOOL_NAME_CHARSET",
        "error",
    )
    assert d["pointer"] == "/tools/0/name"
    assert data["summary"] == {"error": 1, "warning": 1, "info": 1}  # json lists info too
    assert [d["severity"] for d in data["diagnostics"]] == ["error", "warning", "info"]


def test_github_format(work: Path) -> None:
    p = run("check", "bad.yaml", "--format", "github", cwd=work)
    assert p.stdout.splitlines()[0] == (
        "::error file=bad.yaml,line=3,col=11,title=TOOL_NAME_CHARSET::tool name 'get weather' "
        "contains space; allowed are A-Z a-z 0-9 _ - ."
    )
    assert p.stdout.splitlines()[1].startswith("::warning file=bad.yaml,line=5,col=19,")
    assert len(p.stdout.splitlines()) == 2  # info hidden, as in text
    p = run("check", "bad.yaml", "--format", "github", "--show-info", cwd=work)
    assert p.stdout.splitlines()[2].startswith("::notice file=bad.yaml,line=9,col=9,")


def test_sarif_format(work: Path) -> None:
    p = run("check", "bad.yaml", "--format", "sarif", cwd=work)
    sarif = json.loads(p.stdout)
    assert sarif["version"] == "2.1.0" and "sarif" in sarif["$schema"]
    run0 = sarif["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    res = run0["results"][0]
    assert res["ruleId"] == "TOOL_NAME_CHARSET" and res["level"] == "error"
    assert rules[res["ruleIndex"]]["id"] == "TOOL_NAME_CHARSET"
    region = res["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (3, 11)
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.yaml"
    assert [r["level"] for r in run0["results"]] == ["error", "warning", "note"]


def test_pyproject_config(work: Path) -> None:
    (work / "pyproject.toml").write_text(
        textwrap.dedent("""
        [tool.mcpgen.check]
        disable = ["TOOL_NAME_CHARSET"]
        severity = { PROPERTY_DESCRIPTION_MISSING = "error" }
        """)
    )
    sub = work / "sub"
    sub.mkdir()
    p = run("check", "../bad.yaml", cwd=sub)  # found by walking up
    assert p.returncode == 1
    assert [line.split(" ")[1:3] for line in p.stdout.splitlines()] == [
        ["warning", "ANNOTATION_FIELD_TYPO"],
        ["error", "PROPERTY_DESCRIPTION_MISSING"],
    ]
    (work / "pyproject.toml").write_text('[tool.mcpgen.check]\nfail-on = "none"\n')
    assert run("check", "bad.yaml", cwd=work).returncode == 0


def test_name_profile(work: Path) -> None:
    long = CLEAN.replace("name: echo", "name: " + "e" * 70)
    (work / "long.yaml").write_text(long)
    assert run("check", "long.yaml", cwd=work).returncode == 0
    p = run("check", "long.yaml", "--name-profile", "64", cwd=work)
    assert (
        p.returncode == 1
        and "TOOL_NAME_LENGTH tool name is 70 characters; the configured name-max-length is 64"
        in p.stdout
    )
    (work / "pyproject.toml").write_text("[tool.mcpgen.check]\nname-max-length = 64\n")
    assert run("check", "long.yaml", cwd=work).returncode == 1


@pytest.mark.parametrize(
    "bad",
    [
        '[tool.mcpgen.check]\ndisabel = ["X"]\n',
        '[tool.mcpgen.check]\ndisable = ["NOT_A_RULE"]\n',
        '[tool.mcpgen.check]\nseverity = { TOOL_NAME_CHARSET = "fatal" }\n',
        "[tool.mcpgen.check]\nname-max-length = 500\n",
        "[tool.mcpgen.check\n",
    ],
)
def test_bad_config_exit_2(work: Path, bad: str) -> None:
    (work / "pyproject.toml").write_text(bad)
    p = run("check", "clean.yaml", cwd=work)
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.startswith("mcpgen: error:") and "pyproject.toml" in p.stderr


def test_inline_ignore(work: Path) -> None:
    text = BAD.replace(
        "  - name: get weather", "  - name: get weather  # mcpgen: ignore TOOL_NAME_CHARSET"
    )
    text = text.replace(
        "{readonlyHint: true}", "{readonlyHint: true}  # mcpgen: ignore ANNOTATION_FIELD_TYPO"
    )
    text = text.replace(
        "        city: {type: string}",
        "        # mcpgen: ignore PROPERTY_DESCRIPTION_MISSING\n        city: {type: string}",
    )
    (work / "ignored.yaml").write_text(text)
    p = run("check", "ignored.yaml", cwd=work)
    assert (p.returncode, p.stdout) == (0, "")


def test_rules_lists_every_rule(work: Path) -> None:
    p = run("rules", "--format", "json", cwd=work)
    rules = {r["id"]: r for r in json.loads(p.stdout)}
    for rid in (
        "TOOL_NAME_CHARSET",
        "MANIFEST_SCHEMA",
        "DUPLICATE_KEY",
        "REF_CYCLE",
        "TOOL_NO_DELETE",
        "X_MCP_HEADER_TYPE",
        "INPUT_UNREADABLE",
    ):
        assert rid in rules
    assert rules["EXECUTION_TASK_SUPPORT"]["revisions"] == ["2025-11-25", "2026-07-28", "draft"]
    assert rules["TOOL_TASK_REQUIRED_REVISION"]["revisions"][-1] == "2025-11-25"
    assert rules["X_MCP_HEADER_TYPE"]["revisions"] == ["2026-07-28", "draft"]
    assert all(
        r["purpose"] and r["severity"] in ("error", "warning", "info") for r in rules.values()
    )
    assert all(r["why"] for r in rules.values())  # every default says why
    assert rules["DUPLICATE_KEY"]["aliases"] == ["YAML_DUPLICATE_KEY"]
    assert "YAML_DUPLICATE_KEY" not in rules
    text = run("rules", cwd=work).stdout
    assert "TOOL_NAME_PORTABLE" in text and "(off by default" in text
    assert "why: " in text and "formerly: YAML_DUPLICATE_KEY" in text


def test_revision_selection_names_the_revision(work: Path) -> None:
    text = CLEAN.replace("protocol: [2025-11-25]", "protocol: [2025-03-26, 2026-07-28]").replace(
        "    inputSchema:", "    outputSchema: {type: object}\n    inputSchema:"
    )
    (work / "rev.yaml").write_text(text)
    assert run("check", "rev.yaml", cwd=work).stdout == ""  # off by default: harmless
    p = run("check", "rev.yaml", "--enable", "TOOL_FIELD_REVISION", "--show-info", cwd=work)
    assert "info TOOL_FIELD_REVISION 'outputSchema' is not part of revision 2025-03-26" in p.stdout
    (work / "rev2.yaml").write_text(text.replace("2025-03-26, ", ""))
    p = run("check", "rev2.yaml", "--enable", "TOOL_FIELD_REVISION", "--show-info", cwd=work)
    assert p.stdout == ""


def test_check_does_not_import_heavy_modules(work: Path) -> None:
    (work / "m.yaml").write_text(dump_yaml(make_manifest(5)))
    code = textwrap.dedent("""
        import sys
        from mcpgen.cli import main
        try:
            main(["check", "m.yaml", "bad.yaml"])
        except SystemExit:
            pass
        heavy = sorted(m for m in sys.modules
                       if m.split(".")[0] in ("datamodel_code_generator", "black", "jinja2"))
        print("HEAVY", heavy)
        # what only some manifests or other commands need (pre-commit runs check on every
        # commit): the breaking-change comparisons, OAuth config, hashing of referenced files
        later = sorted(m for m in ("mcpgen_runtime.breaking.tools", "mcpgen.check.breaking",
                                   "mcpgen_runtime.server.auth.config", "hashlib")
                       if m in sys.modules)
        print("LATER", later)
        """)
    p = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True)
    assert "HEAVY []" in p.stdout, p.stdout + p.stderr
    assert "LATER []" in p.stdout, p.stdout + p.stderr
    assert "TOOL_NAME_CHARSET" in p.stdout  # it really ran the rules


def test_valid_schemas_never_reach_jsonschema(work: Path) -> None:
    """The fast meta-schema path vouches for valid schemas; jsonschema loads only for bad ones."""
    (work / "m.yaml").write_text(dump_yaml(make_manifest(20)))
    code = textwrap.dedent("""
        import sys
        from mcpgen.cli import main
        try:
            main(["check", sys.argv[1]])
        except SystemExit as e:
            print("EXIT", e.code)
        print("JSONSCHEMA", "jsonschema" in sys.modules)
        """)
    p = subprocess.run(
        [sys.executable, "-c", code, "m.yaml"], cwd=work, capture_output=True, text=True
    )
    assert "JSONSCHEMA False" in p.stdout, p.stdout + p.stderr
    (work / "bad_schema.yaml").write_text(CLEAN.replace("type: string,", "type: strin,"))
    p = subprocess.run(
        [sys.executable, "-c", code, "bad_schema.yaml"], cwd=work, capture_output=True, text=True
    )
    assert "SCHEMA_VALID" in p.stdout and "JSONSCHEMA True" in p.stdout, p.stdout + p.stderr


def test_generated_manifests_are_clean(tmp_path: Path) -> None:
    for seed in range(3):
        (tmp_path / f"m{seed}.yaml").write_text(dump_yaml(make_manifest(30, seed)))
        (tmp_path / f"m{seed}.json").write_text(dump_json(make_manifest(30, seed)))
    files = sorted(p.name for p in tmp_path.iterdir())
    p = run("check", *files, "--fail-on", "info", "--enable", "TOOL_NAME_PORTABLE", cwd=tmp_path)
    assert (p.returncode, p.stdout) == (0, "")


def test_bundled_example_is_clean() -> None:
    """The README's first command: the weather example has no findings at all (not even info)."""
    p = run("check", "examples/weather/tools.yaml", cwd=REPO)
    assert (p.returncode, p.stdout, p.stderr) == (
        0,
        "",
        "mcpgen: no findings in 1 file (4 tools, 2 resources, 1 resource template, 1 prompt)\n",
    )
    p = run("check", "examples/weather/tools.yaml", "--show-info", "--format", "json", cwd=REPO)
    assert json.loads(p.stdout)["diagnostics"] == []


REPEATED = """\
protocol: [2025-11-25]
tools:
""" + "".join(
    f"""\
  - name: t{i}
    description: Tool {i}.
    annotations: {{readonlyHint: true}}
    inputSchema: {{type: object, properties: {{x: {{type: string, description: X.}}}}, \
required: [z]}}
"""
    for i in range(6)
)


def test_repeated_findings_collapse_but_errors_never_do(work: Path) -> None:
    (work / "rep.yaml").write_text(REPEATED)
    p = run("check", "rep.yaml", cwd=work)
    lines = p.stdout.splitlines()
    errors = [line for line in lines if " error SCHEMA_REQUIRED_UNDEFINED " in line]
    assert len(errors) == 6  # one line per error, always
    typos = [line for line in lines if "ANNOTATION_FIELD_TYPO" in line]
    assert typos == [
        "rep.yaml:5:19: warning ANNOTATION_FIELD_TYPO unknown annotation 'readonlyHint' (did you "
        "mean 'readOnlyHint'?); clients ignore it, so that hint is not given [+5 more "
        "ANNOTATION_FIELD_TYPO in this file, at 9:19, 13:19, 17:19, ...; --verbose lists each]"
    ]
    assert p.stderr == "mcpgen: 6 errors, 6 warnings in 1 file (6 tools)\n"
    verbose = run("check", "rep.yaml", "--verbose", cwd=work).stdout.splitlines()
    assert len([line for line in verbose if "ANNOTATION_FIELD_TYPO" in line]) == 6
    assert len(verbose) == 12
    for fmt in ("json", "sarif", "github"):  # machine formats list every finding
        out = run("check", "rep.yaml", "--format", fmt, cwd=work).stdout
        assert out.count("ANNOTATION_FIELD_TYPO") >= 6, fmt


def test_statistics(work: Path) -> None:
    (work / "rep.yaml").write_text(REPEATED)
    p = run("check", "rep.yaml", "bad.yaml", "--statistics", cwd=work)
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        "    7  ANNOTATION_FIELD_TYPO         warning",
        "    6  SCHEMA_REQUIRED_UNDEFINED     error",
        "    1  TOOL_NAME_CHARSET             error",
        "    1  PROPERTY_DESCRIPTION_MISSING  info",
    ]
    p = run("check", "rep.yaml", "--statistics", "--format", "json", cwd=work)
    assert json.loads(p.stdout) == [  # most frequent first; errors first on a tie
        {"rule_id": "SCHEMA_REQUIRED_UNDEFINED", "severity": "error", "count": 6},
        {"rule_id": "ANNOTATION_FIELD_TYPO", "severity": "warning", "count": 6},
    ]
    assert run("check", "rep.yaml", "--statistics", "--format", "sarif", cwd=work).returncode == 2


DUP = """\
tools:
  - name: a
    name: b  # mcpgen: ignore YAML_DUPLICATE_KEY
    description: B.
    inputSchema: {type: object}
"""


def test_duplicate_key_keeps_its_old_id_as_an_alias(work: Path) -> None:
    (work / "dup.json").write_text(
        '{"tools": [{"name": "a", "name": "b", "description": "B.", '
        '"inputSchema": {"type": "object"}}]}'
    )
    p = run("check", "dup.json", cwd=work)
    assert p.returncode == 1 and "error DUPLICATE_KEY duplicate key 'name'" in p.stdout
    # the old id in an inline ignore comment, on the command line and in pyproject.toml
    (work / "dup.yaml").write_text(DUP)
    assert run("check", "dup.yaml", cwd=work).returncode == 0
    assert run("check", "dup.json", "--disable", "YAML_DUPLICATE_KEY", cwd=work).returncode == 0
    (work / "pyproject.toml").write_text(
        '[tool.mcpgen.check]\nseverity = { YAML_DUPLICATE_KEY = "warning" }\n'
    )
    p = run("check", "dup.json", cwd=work)
    assert p.returncode == 0 and "warning DUPLICATE_KEY" in p.stdout
    (work / "pyproject.toml").write_text('[tool.mcpgen.check]\ndisable = ["yaml_duplicate_key"]\n')
    assert run("check", "dup.json", cwd=work).stdout == ""
