"""The lean engine's stdin protocol (``lean.stdio._Lines``) cuts lines only once it is attached,
after what the fast boot read and did not answer: the boot may hand over in the middle of a
line (its ``pending`` ends with the line's head, the pipe then holds the tail), and each line
must still reach the engine whole and in order."""

from __future__ import annotations

import asyncio

from mcpgen_runtime.lean.stdio import _Lines


def _run(pending: bytes, before: list[bytes], after: list[bytes], eof_before: bool) -> list[bytes]:
    async def main() -> list[bytes]:
        lines = _Lines()
        for data in before:  # read by the protocol before the engine is attached
            lines.data_received(data)
        if eof_before:
            lines.eof_received()
        got: list[bytes] = []
        lines.attach(got.append, lambda data: None, pending)
        for data in after:
            lines.data_received(data)
        if not eof_before:
            lines.eof_received()
        assert lines.done.done()
        return got

    return asyncio.run(main())


A = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a"}}\n'
B = b'{"jsonrpc":"2.0","id":3,"method":"ping"}\n'
C = b'{"jsonrpc":"2.0","id":4,"method":"ping"}'


def test_a_line_split_across_the_handover_arrives_whole() -> None:
    for cut in (1, 10, len(A) - 1):
        got = _run(A[:cut], [A[cut:] + B], [], eof_before=False)
        assert got == [A, B], cut


def test_every_split_of_the_stream_gives_the_same_lines() -> None:
    stream = A + B + A + B
    for cut in range(1, len(stream)):
        for mid in (cut, (cut + len(stream)) // 2):
            got = _run(stream[:cut], [stream[cut:mid]], [stream[mid:]], eof_before=False)
            assert got == [A, B, A, B], (cut, mid)


def test_end_of_input_before_attach_keeps_the_last_line() -> None:
    got = _run(A[:5], [A[5:] + C], [], eof_before=True)
    assert got == [A, C]
