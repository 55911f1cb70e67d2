"""``--state redis://host/notanumber`` (issue 50) is refused in one line: redis-py would use
database 0 without a word."""

from __future__ import annotations

import pytest

from mcpgen_runtime.server.state import StateError, open_state


@pytest.mark.parametrize(
    "url", ["redis://localhost/notanumber", "redis://localhost:6379/1x", "unix:///tmp/r.sock?db=a"]
)
def test_a_database_that_is_not_a_number_is_refused(url: str) -> None:
    with pytest.raises(StateError) as exc:
        open_state(url)
    assert "is not a number" in str(exc.value)


@pytest.mark.parametrize("url", ["redis://localhost:6379/0", "redis://localhost", "rediss://h/3"])
def test_a_numbered_database_passes_the_check(url: str) -> None:
    from mcpgen_runtime.server.state import _check_db

    _check_db(url, url.split("://")[0])
