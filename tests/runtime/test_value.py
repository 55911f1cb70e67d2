"""``Value``: the records a server builds at start behave as the frozen dataclasses they
replaced (equality, hash, a changed copy, a repr that keeps a secret out)."""

from __future__ import annotations

import pytest

from mcpgen_runtime.server.auth.scopes import Caller
from mcpgen_runtime.server.bindings import ServerInfo
from mcpgen_runtime.server.limits import DEFAULT_LIMITS, Limits
from mcpgen_runtime.tasks.settings import TaskSettings


def test_equal_by_fields_and_a_replace_changes_only_what_it_names() -> None:
    info = ServerInfo("srv", "1.0", title="T")
    assert info == ServerInfo(name="srv", version="1.0", title="T")
    changed = info.replace(list_changed=True)
    assert changed.list_changed and not info.list_changed
    assert (changed.name, changed.version, changed.title) == ("srv", "1.0", "T")
    assert changed != info
    assert info != ("srv", "1.0")


def test_limits_merge_and_hash_as_values() -> None:
    merged = DEFAULT_LIMITS.merged({"timeoutSeconds": 5, "rateLimit": {"perSecond": 2}})
    assert merged == Limits(timeout_s=5.0, rate_per_s=2.0)
    assert merged.max_argument_bytes == DEFAULT_LIMITS.max_argument_bytes
    assert hash(Limits()) == hash(DEFAULT_LIMITS)
    assert len({Limits(), Limits(), merged}) == 2
    assert repr(Limits(burst=3)) == (
        "Limits(timeout_s=300.0, max_argument_bytes=1048576, rate_per_s=None, burst=3)"
    )


def test_a_callers_repr_never_shows_its_token() -> None:
    caller = Caller("alice", "app", frozenset({"read"}), token="s3cr3t-token")
    assert "s3cr3t-token" not in repr(caller)
    assert "alice" in repr(caller)
    assert caller.replace(token=None) == Caller("alice", "app", frozenset({"read"}))


def test_records_take_no_other_attributes() -> None:
    with pytest.raises(AttributeError):
        TaskSettings().extra = 1  # type: ignore[attr-defined]
    assert TaskSettings.of({"keepSeconds": 5}) == TaskSettings(keep_s=5)
