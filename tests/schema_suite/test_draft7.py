"""The official JSON-Schema-Test-Suite, ``tests/draft7`` (issue 51), for the revisions whose
tools declare draft-07 (``$schema`` on the inputSchema; the manifest targets 2024-11-05 and
2025-03-26): the same runner as ``test_draft2020_12``, checked by jsonschema-rs's draft-07
validator (``$ref`` siblings ignored, ``definitions``, ``additionalItems``...).

Before issue 51 (main at cdf2935): of 246 groups, 214 generated, ``check`` refused 27,
``server`` refused 5 that ``check`` passed; 805 of 835 cases agreed, 30 valid instances
refused (server and client alike). Now: 244 generate, ``check`` refuses the 2 remote ones,
900 of 900 agree.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema_suite.suite import measure

REMOTE = {
    "definitions.json: validate definition against metaschema",
    "ref.json: remote ref, containing refs itself",
}


def test_every_draft7_group_generates_and_agrees_with_the_suite(
    suite_root: Path, tmp_path: Path, no_network: list[str]
) -> None:
    table = measure(suite_root, "draft7", tmp_path)
    print(table.row())
    assert set(table.check_errors) == REMOTE
    assert all(len(e) == 1 and e[0].rule_id == "REF_NETWORK" for e in table.check_errors.values())
    assert table.generated_although_refused == []
    assert table.generated == table.groups - table.skipped - len(REMOTE)
    assert table.refused_by_server_only == []
    assert table.valid_refused == []
    assert table.invalid_accepted == []
    assert table.client_disagrees == []
    assert table.agreeing == table.cases > 850
    assert no_network == []
