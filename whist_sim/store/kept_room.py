"""Room a writer keeps on the run's disk for the one write a full disk must not stop.

A session stopped by a full disk records in run.json that it failed, and resume, reports
and ``whist-sim status`` read that record. Dropping the unit it was writing gives some
room back, but not always: when the disk filled as a file began, that unit held nothing,
and the new run.json (written beside the old one, then renamed over it) found no room, so
the run still said "running" (a clean-clone CI run). A writer therefore holds a file of
real blocks, ``.kept-room``, while it has the folder, and removes it just before that
record. Its bytes are random, so a file system that compresses cannot shrink it to
nothing. Closing the folder removes it; a writer killed before that leaves it, and the
next writer's opening writes it again.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

KEPT_ROOM_FILE = ".kept-room"

KEPT_ROOM_BYTES = 128_000
"""Bytes kept at least: run.json takes about 5 kB, and its replacement is written whole
before the old one goes. ``keep_room`` keeps four times a larger run.json's size."""


def room_to_keep(meta_bytes: int) -> int:
    """Bytes to keep for a run whose run.json takes ``meta_bytes``."""
    return max(KEPT_ROOM_BYTES, 4 * meta_bytes)


def keep_room(run: Path, meta_bytes: int) -> None:
    """Hold ``room_to_keep(meta_bytes)`` bytes in ``run``'s kept-room file; on a disk
    without them, an OSError naming that file (the session could not have recorded its
    stop either). A write that fills the disk raises one with no file name."""
    path = run / KEPT_ROOM_FILE
    try:
        with open(path, "wb") as file:
            file.write(os.urandom(room_to_keep(meta_bytes)))
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def give_back_room(run: Path) -> None:
    """Remove ``run``'s kept-room file, if there is one: its room is for what comes next."""
    with contextlib.suppress(FileNotFoundError):
        (run / KEPT_ROOM_FILE).unlink()
