"""Benching: an entrant that keeps failing sits out the rest of the run (``bench_after``).

A strategy that forfeits deal after deal (it crashes, hangs to its time limit, or
plays illegally every time) costs time and says nothing more about its strength.
With ``tournament.bench_after = N``, once an entrant has forfeited N times it is
benched: from then on its seats forfeit at their first decision without calling
it, with the reason in the error ("benched after 5 forfeits").

"From then on" must not depend on how the work was cut, or the rows would depend
on the number of workers. So forfeits are counted in PLAN ORDER, item by item
(an item is a line-up and a deal index with all its seatings), and the entrant is
benched from the item after the one holding its N-th forfeit. The runner commits a
run with benching in plan order and asks :meth:`Bench.scan` about each task before
committing it: if the task holds a new bench point before its last item, the task
is played again with the entrant benched (its earlier items come out the same),
and every task after it too. The result is the same for any task size, any
number of workers, and a resume.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import polars as pl
import pyarrow as pa

from whist_sim.tournament.schedule import Plan


@dataclass
class Bench:
    """Forfeits per entrant in plan order, and the items from which entrants are benched."""

    after: int | None
    """Forfeits that bench an entrant (None: never)."""
    plan: Plan
    pairing_ids: list[int]
    """Round-robin number of each played line-up (rows carry these as ``pairing``)."""
    forfeits: dict[str, int] = field(default_factory=dict)
    benched: dict[str, int] = field(default_factory=dict)
    """Label -> the first item it sits out."""

    @property
    def reasons(self) -> dict[str, tuple[int, str]]:
        """What a ``TaskSpec`` carries: label -> (first item benched, the forfeits' reason)."""
        return {label: (item, self.reason) for label, item in self.benched.items()}

    @property
    def reason(self) -> str:
        return (f"benched after {self.after} forfeits (tournament.bench_after = {self.after});"
                " its seats forfeit unplayed")

    def scan(self, task: int, seats: pa.Table | pl.DataFrame) -> dict[str, int]:
        """Count a task's forfeits (the next task in plan order); return new bench points.

        A new point inside the task (before its last item) means the task must be
        played again with it; the counts are then not kept, so call again with the
        replayed task's rows.
        """
        if self.after is None:
            return {}
        frame = seats if isinstance(seats, pl.DataFrame) else pl.from_arrow(seats)
        items = self.plan.task_items(task)
        first = task * self.plan.deals_per_task
        index = {(self.pairing_ids[p], d): first + k for k, (p, d) in enumerate(items)}
        per_item = (
            frame.filter(pl.col("result") == "forfeit")
            .group_by("pairing", "deal", "strategy").len()
        )
        counts = dict(self.forfeits)
        found: dict[str, int] = {}
        for item_key, item in sorted(index.items(), key=lambda kv: kv[1]):
            rows = per_item.filter((pl.col("pairing") == item_key[0])
                                   & (pl.col("deal") == item_key[1]))
            for label, count in rows.select("strategy", "len").iter_rows():
                if label in self.benched or label in found:
                    continue
                counts[label] = counts.get(label, 0) + count
                if counts[label] >= self.after:
                    found[label] = item + 1
        last = first + len(items) - 1
        if not any(point <= last for point in found.values()):
            self.forfeits = counts
        self.benched.update(found)
        return found

    def replay_from(self, task: int, found: Mapping[str, int]) -> int:
        """The first task to play again after ``found``: this one if a point lies inside it."""
        last = task * self.plan.deals_per_task + len(self.plan.task_items(task)) - 1
        return task if any(point <= last for point in found.values()) else task + 1

    def record(self) -> dict[str, dict[str, int]]:
        """For run.json: each benched entrant's first item sat out and its forfeits."""
        return {label: {"from_item": item, "forfeits": self.forfeits.get(label, self.after or 0)}
                for label, item in self.benched.items()}

    def seed(self, tasks: Iterable[tuple[int, pa.Table | pl.DataFrame]]) -> None:
        """Replay the counts of tasks already committed (a resumed run), in plan order."""
        for task, seats in sorted(tasks, key=lambda pair: pair[0]):
            self.scan(task, seats)
