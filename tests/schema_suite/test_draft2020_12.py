"""The official JSON-Schema-Test-Suite, ``tests/draft2020-12`` (issue 51): each group's schema
as one tool parameter, through ``check``, ``server`` and the generated server's argument path
(and the typed client's: ``mcpgen client``, ``ClientTool.arguments``), with every socket refused.

Before issue 51 (same runner, main at cdf2935): of 367 groups, 316 generated, ``check`` refused
40, ``server`` refused 11 that ``check`` passed; 1,091 of 1,134 cases agreed, 43 valid instances
refused (by the server and the client alike), 0 invalid accepted; datamodel-code-generator
looked up remote hosts. Now: 360 generate, ``check`` refuses the 7 remote ones, 1,248 of 1,248
agree.

For every group, either ``check`` refuses it (only schemas that name a document outside the
manifest: a remote ``$ref``) with one located error, and ``server`` refuses the same manifest;
or it generates, and every case agrees with the suite: no valid instance refused, no invalid
one accepted.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema_suite.suite import measure

# The groups that name a document outside the manifest (a remote $ref): check refuses them.
REMOTE = {
    "defs.json: validate definition against metaschema",
    "dynamicRef.json: strict-tree schema, guards against misspelled properties",
    "dynamicRef.json: tests for implementation dynamic anchor and reference link",
    "dynamicRef.json: $ref and $dynamicAnchor are independent of order - $defs first",
    "dynamicRef.json: $ref and $dynamicAnchor are independent of order - $ref first",
    "dynamicRef.json: $ref to $dynamicRef finds detached $dynamicAnchor",
    "ref.json: remote ref, containing refs itself",
}


def test_every_group_generates_and_agrees_with_the_suite(
    suite_root: Path, tmp_path: Path, no_network: list[str]
) -> None:
    table = measure(suite_root, "draft2020-12", tmp_path)
    print(table.row())
    assert table.generated == table.groups - table.skipped - len(REMOTE)
    assert table.refused_by_server_only == []
    assert table.valid_refused == []
    assert table.invalid_accepted == []
    assert table.client_disagrees == []
    assert table.agreeing == table.cases > 1200
    assert no_network == []


def test_check_refuses_remote_groups_with_one_located_error_and_server_too(
    suite_root: Path, tmp_path: Path, no_network: list[str]
) -> None:
    table = measure(suite_root, "draft2020-12", tmp_path)
    assert set(table.check_errors) == REMOTE
    for group, errors in table.check_errors.items():
        assert len(errors) == 1, (group, errors)
        (error,) = errors
        assert error.rule_id == "REF_NETWORK", (group, error)
        assert error.location.line > 1 and "$ref" in error.message, (group, error)
    assert table.generated_although_refused == []
    assert no_network == []
