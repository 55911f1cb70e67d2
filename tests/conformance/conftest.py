"""The conformance suite, installed once per session, and its runs shared by every test here
(``suite.SuiteRuns``). The whole-suite table (``test_whole_suite``) is printed at the end of the
session's report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conformance.suite import TABLES, SuiteRuns


@pytest.fixture(scope="session")
def suite_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SuiteRuns]:
    runs = SuiteRuns.install(tmp_path_factory.mktemp("conformance"), tmp_path_factory)
    yield runs
    runs.stop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for table in TABLES:
        terminalreporter.write_sep("-", "conformance: every scenario the suite lists")
        terminalreporter.write_line(table)
