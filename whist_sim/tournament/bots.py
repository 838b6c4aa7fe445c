"""Isolated entrants in a worker: one pool of bot processes per worker process, reused.

An entrant with ``use = "process"`` (a bot program in any language) or
``isolate = true`` (a Python strategy served by ``python -m whist_sim.protocol``)
plays through a ``protocol.ProcessStrategy``: one bot process per seat it holds,
started at its first decision, kept across deals and tasks for as long as this
worker process lives, restarted for the next deal after a crash, and shut down
when the worker ends (``close_bots``, also at exit). Each bot's stderr goes to a
file in this worker's scratch folder; what a task added is handed back with the
task's results (``bot_stderr``) and kept, capped, in the run folder's
``logs/output/<entrant> (stderr).log``.

A bot's decisions get slightly less than the decision time limit, so that the
bot's own, clearer timeout ("no action within 9.5 s") fires before the play
loop's alarm; either way the deal is forfeited and the bot restarted.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whist_sim.games.base import Game

BOT_TIME_SHARE = 0.95
"""Share of the decision limit a bot's reply may take before the bot times out."""

NO_LIMIT_SECONDS = 600.0
"""A bot's reply limit when the run has no decision limit: never wait without end."""

STDERR_PER_TASK = 1 << 20
"""Bytes of a bot's stderr handed back per task (the run caps the total per entrant)."""


@dataclass(frozen=True)
class BotEntry:
    """An isolated entrant as a task carries it: plain data, cheap to ship."""

    command: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def strategy(self, label: str, game: Game, spec: Any) -> Any:
        """This worker's ``ProcessStrategy`` for the entrant (made once, then reused)."""
        limit = spec.time_limit
        seconds = NO_LIMIT_SECONDS if limit is None else max(0.001, limit * BOT_TIME_SHARE)
        key = (label, self.command, self.cwd, json.dumps(dict(self.env or {}), sort_keys=True),
               json.dumps(dict(self.params), sort_keys=True, default=str), game.name,
               game.players, json.dumps(game.variant.as_dict(), sort_keys=True), seconds)
        found = _POOL.get(key)
        if found is None:
            from whist_sim.protocol import ProcessStrategy

            stderr = _scratch() / f"bot-{len(_POOL)}.stderr"
            found = ProcessStrategy(
                self.command, label=label, cwd=self.cwd, env=self.env, params=self.params,
                game=game.name, variant=game.variant.as_dict(), time_limit=seconds,
                stderr_path=stderr,
            )
            _POOL[key] = found
            _STDERR[label] = (stderr, 0)
        return found


_POOL: dict[tuple[Any, ...], Any] = {}
"""This process's bots, by everything that makes two of them differ."""

_STDERR: dict[str, tuple[Path, int]] = {}
"""Entrant -> its bots' stderr file and how much of it was handed back."""

_SCRATCH: list[Path] = []


def _scratch() -> Path:
    if not _SCRATCH:
        _SCRATCH.append(Path(tempfile.mkdtemp(prefix="whist-sim-bots-")))
    return _SCRATCH[0]


def bot_stderr(bots: Mapping[str, BotEntry]) -> dict[str, str]:
    """What each of this task's bots wrote to stderr since the last task, capped."""
    found: dict[str, str] = {}
    for label in bots:
        if label not in _STDERR:
            continue
        path, offset = _STDERR[label]
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            handle.seek(offset)
            data = handle.read(STDERR_PER_TASK)
            end = handle.seek(0, 2)
        _STDERR[label] = (path, end)
        if data:
            text = data.decode("utf-8", "replace")
            if end - offset > len(data):
                text += f"\n[{end - offset - len(data):,} more bytes of stderr dropped]\n"
            found[f"{label} (stderr)"] = text
    return found


def close_bots() -> None:
    """Say ``quit`` to every bot of this process and end them, and remove the scratch folder
    their stderr went to (what a task handed back of it is in the run folder's logs): each
    run left a ``whist-sim-bots-*`` folder behind (a bot operator counted 300 in /tmp)."""
    for bot in _POOL.values():
        bot.close()
    _POOL.clear()
    _STDERR.clear()
    for folder in _SCRATCH:
        shutil.rmtree(folder, ignore_errors=True)
    _SCRATCH.clear()


atexit.register(close_bots)
