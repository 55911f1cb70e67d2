"""requestState across replicas: sealed by one replica, opened by another that shares its key
(from a key file), also after a rotation (the previous key still opens states during the grace
period), and refused with a clear tool error by a replica configured with another key."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.interop.procs import HttpServer
from tests.interop.wire import HttpPeer, modern_meta
from tests.state.conftest import RedisServer
from tests.state.test_replicas import package, replica  # noqa: F401  (the package fixture)

OLD = "old-key-" + "o" * 32
NEW = "new-key-" + "n" * 32
OTHER = "hex:" + os.urandom(32).hex()
ASK = {
    **modern_meta(),
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
}


def ask(url: str, **extra: Any) -> dict[str, Any]:
    peer = HttpPeer(url, modern=True)
    try:
        res = peer.request("tools/call", {"name": "ask", "arguments": {}, "_meta": ASK, **extra})
    finally:
        peer.close()
    assert "result" in res, res
    return dict(res["result"])


def answer(url: str, state: str) -> dict[str, Any]:
    return ask(
        url,
        requestState=state,
        inputResponses={"name": {"action": "accept", "content": {"name": "Ada"}}},
    )


@pytest.fixture(scope="module")
def keyed(
    package: Path,  # noqa: F811
    redis_server: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, HttpServer]]:
    """before: the old key; after: rotated (the new key first, the old one kept); apart:
    another key, all on one Redis."""
    keys = tmp_path_factory.mktemp("keys")
    files = {
        "before": f"# the requestState key\n{OLD}\n",
        "after": f"{NEW}\n# previous, until the grace period ends\n{OLD}\n",
        "apart": f"{OTHER}\n",
    }
    servers: dict[str, HttpServer] = {}
    for name, text in files.items():
        path = keys / name
        path.write_text(text)
        path.chmod(0o600)
        servers[name] = replica(
            package,
            "--state",
            redis_server.url,
            env={"MCPGEN_REQUEST_STATE_KEY_FILE": str(path)},
        )
    try:
        for s in servers.values():
            s.start()
        yield servers
    finally:
        for s in servers.values():
            s.stop()


def test_an_input_required_round_is_answered_on_a_rotated_replica(
    keyed: dict[str, HttpServer],
) -> None:
    first = ask(keyed["before"].url)
    assert first["resultType"] == "input_required", first
    done = answer(keyed["after"].url, first["requestState"])
    assert not done.get("isError"), done
    text = done["content"][0]["text"]
    assert text.startswith("name=Ada")
    assert text.split("pid=")[1] == str(keyed["after"].proc.pid)  # type: ignore[union-attr]
    # and a state sealed after the rotation opens on another replica holding the new key
    again = ask(keyed["after"].url)
    assert answer(keyed["after"].url, again["requestState"])["content"][0]["text"].startswith(
        "name=Ada"
    )


def test_a_replica_with_another_key_refuses_with_a_tool_error(
    keyed: dict[str, HttpServer],
) -> None:
    first = ask(keyed["before"].url)
    refused = answer(keyed["apart"].url, first["requestState"])
    assert refused.get("isError") is True, refused
    text = refused["content"][0]["text"]
    assert "does not hold" in text and "MCPGEN_REQUEST_STATE_KEY" in text
    assert OLD not in text and OTHER not in text  # never the key itself
    # the replica goes on serving
    assert ask(keyed["apart"].url)["resultType"] == "input_required"


def test_a_state_sealed_with_the_new_key_does_not_open_before_the_rotation(
    keyed: dict[str, HttpServer],
) -> None:
    """A replica not yet rotated cannot open what the rotated ones seal: the operator rolls
    the key file out to every replica (the README says in which order)."""
    sealed_new = ask(keyed["after"].url)["requestState"]
    refused = answer(keyed["before"].url, sealed_new)
    assert refused.get("isError") is True and "does not hold" in refused["content"][0]["text"]
