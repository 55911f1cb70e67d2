"""Reporters: exact text/github lines, and SARIF/JSON structure."""

from __future__ import annotations

import json

import jsonschema

from mcpgen.check import catalog
from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.report import collapsed_lines, github_line, render, summary, text_line

D1 = Diagnostic(
    "TOOL_NO_DELETE",
    Severity.ERROR,
    Location("new.yaml", 3, 5, "/tools"),
    "tool 'a' was removed",
    (Location("old.yaml", 12, 5, "/tools/1/name"),),
)
D2 = Diagnostic(
    "TOOL_DESCRIPTION_MISSING",
    Severity.WARNING,
    Location("dir, x/m.yaml", 2, 1),
    "50% done\nsecond line",
)
D3 = Diagnostic("ANNOTATION_REDUNDANT", Severity.INFO, Location("m.yaml", 1, 1), "meh")

# The parts of the SARIF 2.1.0 schema (OASIS) that our output uses, with their constraints.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {"type": "array", "items": {"$ref": "#/$defs/run"}},
    },
    "$defs": {
        "message": {
            "type": "object",
            "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
            "properties": {"text": {"type": "string"}},
        },
        "location": {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": -1},
                "message": {"$ref": "#/$defs/message"},
                "physicalLocation": {
                    "type": "object",
                    "properties": {
                        "artifactLocation": {
                            "type": "object",
                            "properties": {"uri": {"type": "string"}},
                            "required": ["uri"],
                        },
                        "region": {
                            "type": "object",
                            "properties": {
                                "startLine": {"type": "integer", "minimum": 1},
                                "startColumn": {"type": "integer", "minimum": 1},
                            },
                        },
                    },
                },
            },
        },
        "rule": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string"},
                "shortDescription": {"$ref": "#/$defs/message"},
                "defaultConfiguration": {
                    "type": "object",
                    "properties": {"level": {"enum": ["none", "note", "warning", "error"]}},
                },
            },
        },
        "run": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {
                    "type": "object",
                    "required": ["driver"],
                    "properties": {
                        "driver": {
                            "type": "object",
                            "required": ["name"],
                            "properties": {
                                "name": {"type": "string"},
                                "version": {"type": "string"},
                                "rules": {
                                    "type": "array",
                                    "items": {"$ref": "#/$defs/rule"},
                                    "uniqueItems": True,
                                },
                            },
                        }
                    },
                },
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "results": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["message"],
                        "properties": {
                            "ruleId": {"type": "string"},
                            "ruleIndex": {"type": "integer", "minimum": -1},
                            "level": {"enum": ["none", "note", "warning", "error"]},
                            "message": {"$ref": "#/$defs/message"},
                            "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                            "relatedLocations": {
                                "type": "array",
                                "items": {
                                    "allOf": [
                                        {"$ref": "#/$defs/location"},
                                        {"required": ["message"]},
                                    ]
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_text_line() -> None:
    assert (
        text_line(D1)
        == "new.yaml:3:5: error TOOL_NO_DELETE tool 'a' was removed (was at old.yaml:12:5)"
    )
    assert text_line(D1, "see").endswith("(see old.yaml:12:5)")


def test_github_escapes_properties_and_data() -> None:
    assert github_line(D2) == (
        "::warning file=dir%2C x/m.yaml,line=2,col=1,title=TOOL_DESCRIPTION_MISSING::"
        "50%25 done%0Asecond line"
    )
    assert github_line(D3).startswith("::notice ")


def test_sarif_matches_the_schema_subset_and_indexes_rules() -> None:
    rules = catalog.load_all()
    sarif = json.loads(render([D1, D2, D3], "sarif", rules=rules))
    jsonschema.validate(sarif, SARIF_SUBSET)
    run = sarif["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert set(rules) <= set(ids)
    for res in run["results"]:
        assert ids[res["ruleIndex"]] == res["ruleId"]
    assert [r["level"] for r in run["results"]] == ["error", "warning", "note"]
    rel = run["results"][0]["relatedLocations"][0]["physicalLocation"]
    assert rel["artifactLocation"]["uri"] == "old.yaml" and rel["region"]["startLine"] == 12


def test_json_round_trip() -> None:
    data = json.loads(render([D1, D3], "json"))
    assert [d["rule_id"] for d in data["diagnostics"]] == ["TOOL_NO_DELETE", "ANNOTATION_REDUNDANT"]
    assert data["diagnostics"][0]["related"] == [
        {"path": "old.yaml", "line": 12, "col": 5, "pointer": "/tools/1/name"}
    ]


def test_empty_output_and_summary() -> None:
    assert render([], "text") == "" and render([], "github") == ""
    assert json.loads(render([], "sarif"))["runs"][0]["results"] == []
    assert summary([D1, D2, D3], 2) == "mcpgen: 1 error, 1 warning, 1 info in 2 files"


def test_collapsed_findings_name_each_place_once() -> None:
    said = iter(f"x{i}" for i in range(100))  # one place, several findings: other messages

    def warn(line: int, col: int) -> Diagnostic:
        return Diagnostic("SCHEMA_X", Severity.WARNING, Location("m.yaml", line, col), next(said))

    same = collapsed_lines([warn(13, 28) for _ in range(4)])
    assert same == [
        "m.yaml:13:28: warning SCHEMA_X x0 [+3 more SCHEMA_X at this same place; "
        "--verbose lists each]"
    ]
    mixed = [warn(13, 28) for _ in range(3)] + [warn(20, 5), warn(20, 5), warn(21, 1)]
    assert collapsed_lines(mixed) == [
        "m.yaml:13:28: warning SCHEMA_X x4 [+5 more SCHEMA_X in this file, at 20:5, 21:1; "
        "--verbose lists each]"
    ]
    many = [warn(n, 1) for n in range(1, 7)]
    assert collapsed_lines(many)[0].endswith("at 2:1, 3:1, 4:1, ...; --verbose lists each]")
