"""Isolated entrants in a worker: one pool of bot processes per worker process, reused.

An entrant with ``use = "process"`` (a bot program in any language) or
``isolate = true`` (a Python strategy served by ``python -m whist_sim.protocol``)
plays through a ``protocol.ProcessStrategy``: one bot process per seat it holds,
started at its first decision, kept across deals and tasks for as long as this
worker process lives, restarted for the next deal after a crash, and shut down
when the worker ends (``close_bots``, also at exit). Each entrant's stderr is kept
in this worker's memory, never in a file: any process of the user can read a file,
and so every other bot could read a bot's debug output, its hand perhaps, while the
deal is played. What a task added is handed back with the task's results
(``bot_stderr``) and kept, capped, in the run folder's
``logs/output/<entrant> (stderr).log`` once the task is committed.

A bot's decisions get slightly less than the decision time limit, so that the
bot's own, clearer timeout ("no action within 9.5 s") fires before the play
loop's alarm; either way the deal is forfeited and the bot restarted.
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from whist_sim.games.base import Game
from whist_sim.protocol.bot_process import LineLog

BOT_TIME_SHARE = 0.95
"""Share of the decision limit a bot's reply may take before the bot times out."""

NO_LIMIT_SECONDS = 600.0
"""A bot's reply limit when the run has no decision limit: never wait without end."""

STDERR_PER_TASK = 1 << 20
"""Characters of an entrant's stderr a worker keeps and hands back per task, the rest
dropped with a note (the run caps the total per entrant): a bot that floods stderr
costs a worker at most this much memory."""


@dataclass(frozen=True)
class BotEntry:
    """An isolated entrant as a task carries it: plain data, cheap to ship."""

    command: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    contain: tuple[str, ...] | None = None
    """Run it contained (``bot_containment``), these paths hidden; None: not contained."""
    pause: bool = True
    """Stop its processes between their decisions (``tournament.pause_bots``)."""

    def strategy(self, label: str, game: Game, spec: Any) -> Any:
        """This worker's ``ProcessStrategy`` for the entrant (made once, then reused)."""
        limit = spec.time_limit
        seconds = NO_LIMIT_SECONDS if limit is None else max(0.001, limit * BOT_TIME_SHARE)
        key = (label, self.command, self.cwd, json.dumps(dict(self.env or {}), sort_keys=True),
               json.dumps(dict(self.params), sort_keys=True, default=str), game.name,
               game.players, json.dumps(game.variant.as_dict(), sort_keys=True), seconds,
               self.contain, self.pause)
        found = _POOL.get(key)
        if found is None:
            from whist_sim.protocol import ProcessStrategy

            log = _STDERR.get(label)
            if log is None:
                log = _STDERR[label] = LineLog(None, STDERR_PER_TASK, in_memory=True)
            found = ProcessStrategy(
                self.command, label=label, cwd=self.cwd, env=self.env, params=self.params,
                game=game.name, variant=game.variant.as_dict(), time_limit=seconds,
                stderr_log=log, run_limit=limit, contain=self.contain, pause=self.pause,
            )
            _POOL[key] = found
        return found


_POOL: dict[tuple[Any, ...], Any] = {}
"""This process's bots, by everything that makes two of them differ."""

_STDERR: dict[str, LineLog] = {}
"""Entrant -> its bots' stderr not yet handed back (one log for all its seats' bots)."""


def bot_stderr(bots: Mapping[str, BotEntry]) -> dict[str, str]:
    """What each of this task's bots wrote to stderr since the last task, capped."""
    found: dict[str, str] = {}
    for label in bots:
        log = _STDERR.get(label)
        text = "" if log is None else log.take()
        if text:
            found[f"{label} (stderr)"] = text
    return found


def close_bots() -> None:
    """Say ``quit`` to every bot of this process and end them."""
    for bot in _POOL.values():
        bot.close()
    _POOL.clear()
    _STDERR.clear()


atexit.register(close_bots)
