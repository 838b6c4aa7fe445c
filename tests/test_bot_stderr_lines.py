"""A bot's stderr cut into lines as it comes: the same lines whatever the chunks.

The engine's reader once joined every chunk to the bytes pending and split them all
again, which cost the square of a line's length: a bot flooding stderr without a
newline kept it busy for seconds (a probe). ``LineSplitter`` looks at each byte a
fixed number of times; these tests pin the lines it gives to those of the whole stream.
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from whist_sim.protocol.bot_process import LineSplitter

MAX, KEEP = 12, 5


def whole_stream_lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` split at once, a line over ``MAX`` bytes cut to its first
    ``KEEP`` and `` [...]``; a last line without a newline kept if not empty."""
    *lines, last = data.split(b"\n")
    if last:
        lines.append(last)
    return [line if len(line) <= MAX else line[:KEEP] + b" [...]" for line in lines]


def split_in_chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    splitter = LineSplitter(MAX, KEEP)
    lines: list[bytes] = []
    edges = sorted({min(cut, len(data)) for cut in cuts} | {0, len(data)})
    for start, end in itertools.pairwise(edges):
        lines += splitter.feed(data[start:end])
    return lines + splitter.finish()


@given(st.binary(max_size=120).map(lambda raw: raw.replace(b"\0", b"\n")),
       st.lists(st.integers(0, 120), max_size=12))
def test_the_lines_are_the_whole_streams_whatever_the_chunks(data, cuts):
    assert split_in_chunks(data, cuts) == whole_stream_lines(data)


def test_a_line_without_end_keeps_only_its_start_in_memory():
    splitter = LineSplitter(MAX, KEEP)
    for _ in range(1000):
        assert splitter.feed(b"x" * 7) == []
        assert len(splitter.pending) <= MAX
    assert splitter.feed(b"y\nnext") == [b"xxxxx [...]"]
    assert splitter.finish() == [b"next"]


def test_a_line_of_exactly_the_limit_is_kept_whole():
    splitter = LineSplitter(MAX, KEEP)
    assert splitter.feed(b"a" * MAX + b"\n") == [b"a" * MAX]
