"""Ctrl-C in a generated CLI always ends it with 130: the SIGINT is delivered at many moments
of a task tool's follow (first status, polls, the cancel request), and a one-shot
cancellation swallowed by the SDK must not leave the CLI polling forever."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import anyio
import pytest

from mcpgen_runtime.client.cli_interrupt import run_interruptible
from tests.client.test_tasks import _cli, _log, cli_dir  # noqa: F401 - the fixture


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.45, 0.9])
def test_ctrl_c_at_each_moment_ends_the_cli(cli_dir: Path, tmp_path: Path, delay: float) -> None:  # noqa: F811
    log = tmp_path / "log.jsonl"
    p = _cli(cli_dir, log, "slow")
    try:
        assert p.stderr is not None
        first = p.stderr.readline()
        assert first.strip() == "task task-1: working", first
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and out == ""
    assert {"method": "tasks/cancel", "task": "task-1"} in _log(log)


def test_a_swallowed_cancellation_still_ends_the_call() -> None:
    """What hung the CLI: an await that absorbs one CancelledError (as a request's cleanup
    can) then polls on. The SIGINT's cancel scope stays cancelled, so the loop ends."""
    import os

    state = {"interrupted": False}
    polls: list[int] = []

    async def work() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        try:
            await anyio.sleep(5)
        except anyio.get_cancelled_exc_class():
            pass  # swallowed, as a one-shot task.cancel() could be
        while True:  # a poll loop on a task that never ends
            polls.append(1)
            await anyio.sleep(0.01)

    async def main() -> None:
        with anyio.fail_after(30):
            await run_interruptible(work, state)

    anyio.run(main)
    assert state["interrupted"]
    assert len(polls) <= 1
