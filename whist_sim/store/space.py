"""Room on disk: what a run will take, measured on a sample, against what the disk has left.

A run's size is its hands times the bytes a hand takes as the store writes it
(Parquet, zstd, with the run columns). The bytes are measured, not guessed: the
sample's tables are encoded exactly as a unit's are, once whole and once the first
half of their hands only, and the difference is divided by the hands that make it,
so a file's fixed cost (footer, schema) is not charged to every hand. The one column
whose size depends on who plays, ``actions.seconds`` (the time of each decision), is
charged as if every value were noise (random mantissas, which compress to about 7 bytes
each): a sample played by fast strategies would otherwise compress it to much less than
a real run's timings take. A small sample compresses a little worse than a batch of
millions of rows, so the estimate errs high, which is the safe side.

What the check does not promise: other programs fill the same disk, and a hand of
a long Minnesota game or a forfeit with a long error takes more than the average.
A run whose disk fills anyway stops with every committed task kept, and
``whist-sim run --resume`` continues it once there is room (docs/results.md). A resume
checks again, for the hands still to play, at the bytes a hand the committed tasks
actually took: better than any sample, and free to read (the manifest records each file's
rows and bytes).
"""

from __future__ import annotations

import contextlib
import errno
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from whist_sim.store.kept_room import KEPT_ROOM_BYTES
from whist_sim.store.schema import with_run_columns

COMPACTION_HEADROOM = 0.2
"""Room asked beyond the data itself: a compaction writes each batch before the task
files it folds are removed, and run.json, logs and snapshots take a little."""

COMPACT_UNITS = 64
"""Task units a run holds at most before a compaction folds them into a batch (the
runner's ``COMPACT_EVERY``, which a test keeps equal)."""

FILE_BLOCK = 4096
"""Bytes a file takes on disk at least (a block on ext4 and tmpfs): a run holds up to a
compaction's worth of task units, a few files each, and on a small run that counts."""

SAMPLE_RUN_ID = "20260101-000000-00000000"
"""Stands in for the run's id while measuring (ids all have this length)."""

_HAND_TABLES = ("deals", "seats", "actions", "tricks")
"""Tables keyed by hand, cut in half by hand for the marginal measure; the others
(matches, per-game tables) are cut by row share."""


@dataclass(frozen=True)
class RoomEstimate:
    """What a run needs on disk against what its file system has free."""

    hands: int
    bytes_per_hand: float
    needed: int
    """Bytes the run's data needs, headroom included."""
    free: int
    where: Path
    """The existing folder the free space was measured at."""
    files: int = 0
    """Files alive at once (task units before a compaction), a block each at least."""
    data: int = 0
    """Bytes of the hands themselves (``needed`` less compaction and the files' overhead)."""
    measured_on: str = "a sample"
    """What ``bytes_per_hand`` was measured on: a sample, or a resumed run's committed tasks."""
    resumed: bool = False
    """The hands are those a resumed run has still to play."""

    @property
    def enough(self) -> bool:
        return self.free >= self.needed

    def warning(self, out: Path | str) -> str:
        """One line saying how much room the run needs and what happens if it runs out."""
        hands = f"{self.hands:,} hands{' still to play' * self.resumed}"
        again = "" if self.resumed else (
            " (or, if it stopped before its run.json was written, the same command again)")
        return (
            f"{out}: {self._subject()} needs about {human_bytes(self.needed)} of disk ({hands}"
            f" at about {human_bytes(self.bytes_per_hand)} each, measured on"
            f" {self.measured_on}, plus {human_bytes(self.needed - self.data)} for compaction"
            f" and the task files' own overhead), and {self.where} has"
            f" {human_bytes(self.free)} free; it {'goes on' if self.resumed else 'starts'}"
            f" anyway and stops when the disk is full, keeping every committed task: make"
            f" room, then whist-sim run --resume {out}{again}")

    def reminder(self) -> str:
        """The estimate again, for the line of a run the disk stopped: that line came long
        after the warning (if there was one), which had scrolled away with the progress."""
        return (f"{self._subject()} needs about {human_bytes(self.needed)} of disk, and"
                f" {self.where} had {human_bytes(self.free)} free when"
                f" {'this session' if self.resumed else 'it'} started")

    def _subject(self) -> str:
        return "the rest of the run" if self.resumed else "the run"


def sample_bytes(tables: Mapping[str, pa.Table], hands: int, game: str) -> tuple[float, int]:
    """From a sample task's ``tables`` of ``hands`` hands, each table encoded once whole:
    the bytes one more hand adds to a run, and the bytes a task's files take beyond its
    hands' (footers, schemas). A run of small tasks holds up to a compaction's worth of
    task files at once, and a batch keeps each task's row groups: a probe's run of
    ten-deal tasks filled a disk an estimate counting a block a file said was enough."""
    whole = _encoded(tables, game)
    if hands < 2:
        return whole / max(hands, 1), 0
    half = hands // 2
    first = {name: _first_hands(name, table, half, hands) for name, table in tables.items()}
    per_hand = max(whole - _encoded(first, game), 0) / (hands - half)
    return per_hand, max(whole - int(per_hand * hands), 0)


def _first_hands(name: str, table: pa.Table, half: int, hands: int) -> pa.Table:
    if name in _HAND_TABLES and {"deal_key"} <= set(table.column_names):
        keys = table.column("deal_key").unique()[:half]
        return table.filter(pc.is_in(table.column("deal_key"), value_set=keys))
    return table.slice(0, table.num_rows * half // hands)


def _encoded(tables: Mapping[str, pa.Table], game: str) -> int:
    total = 0
    for name, table in tables.items():
        if "seconds" in table.column_names:
            table = _noisy_seconds(table)
        sink = pa.BufferOutputStream()
        pq.write_table(with_run_columns(table, name, game, SAMPLE_RUN_ID), sink,
                       compression="zstd")
        total += sink.getvalue().size
    return total


def _noisy_seconds(table: pa.Table) -> pa.Table:
    """``table`` with each player's decision's seconds a float of random mantissa (seeded:
    the same sample measures the same), the rules' moves null.

    A decision not timed (a deal of ``random`` seats played compiled) is counted as timed:
    the sample is a run's first task, and a sample of such deals only would have said
    nothing of the seconds the rest of the run's pairings write (a test's run of three
    entrants measured 119 bytes a hand against the 288 it wrote)."""
    noise = pa.array(np.random.default_rng(0).uniform(1e-6, 1.0, table.num_rows))
    index = table.column_names.index("seconds")
    timed = (table.column("chosen") if "chosen" in table.column_names
             else pc.is_valid(table.column("seconds")))
    return table.set_column(index, "seconds",
                            pc.if_else(timed, noise, pa.nulls(table.num_rows, pa.float64())))


ROOM_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT})
"""The errors of a disk (or a quota) with no room left."""


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Around the writing of ``path``: an OSError inside names ``path``. A write that fills
    the disk raises an error with no file name (the open succeeded), and the run's last
    line, which should say where the room ran out, named only the run folder. What was
    written of a file that failed is removed: it is no file the run can use."""
    try:
        yield
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def write_text_named(path: Path, text: str) -> None:
    """``path.write_text(text)``, an OSError naming ``path`` (``writing``)."""
    with writing(path):
        path.write_text(text)


def free_bytes(out: Path | str) -> tuple[int, Path]:
    """Free bytes (for this user) on the file system ``out`` will be on, and the existing
    folder they were measured at (``out`` itself may not exist yet)."""
    where = Path(out).absolute()
    while not where.exists() and where.parent != where:
        where = where.parent
    return shutil.disk_usage(where).free, where


def estimate_room(out: Path | str, hands: int, per_hand: float, *, tasks: int | None = None,
                  task_files: int = 0, task_bytes: int = 0, task_hands: float = 0.0,
                  measured_on: str = "a sample", resumed: bool = False) -> RoomEstimate:
    """Room ``hands`` more hands need at ``per_hand`` bytes each against ``out``'s disk.

    A run of ``tasks`` tasks (None: sized as it runs, so many hands each that their own
    cost is small) writes each as ``task_files`` files of ``task_bytes`` beyond its
    ``task_hands`` hands (footers, schemas: ``sample_bytes``); a batch keeps each task's
    row groups, so those bytes stay. At the peak, a compaction's worth of task units
    (``COMPACT_UNITS``, up to a block lost per file) is on disk beside the
    batch being written of them: on a run of ten-deal tasks that peak filled a disk an
    estimate of the hands alone said was enough. The writer's kept room (``kept_room``)
    counts as overhead too. ``measured_on`` and ``resumed`` are for
    the warning's words (``RoomEstimate``)."""
    free, where = free_bytes(out)
    units = COMPACT_UNITS if tasks is None else min(tasks, COMPACT_UNITS)
    data = int(hands * per_hand) + (units if tasks is None else tasks) * task_bytes
    unit = task_bytes + task_hands * per_hand
    live = units * (unit + task_files * FILE_BLOCK)
    needed = data + int(max(COMPACTION_HEADROOM * data, live + units * unit)) + KEPT_ROOM_BYTES
    return RoomEstimate(hands, per_hand, needed, free, where, units * task_files,
                        int(hands * per_hand), measured_on, resumed)


def human_bytes(count: float) -> str:
    """``1.2 GB``, ``340 kB``, ``812 bytes``: decimal units, as df -H and file managers say."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count:.0f} bytes"
