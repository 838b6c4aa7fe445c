"""Benching: an entrant that keeps failing sits out the rest of the run (``bench_after``).

A strategy that forfeits deal after deal (it crashes, hangs to its time limit, or
plays illegally every time) costs time and says nothing more about its strength.
With ``tournament.bench_after = N``, once an entrant has forfeited N times it is
benched: from then on its seats forfeit at their first decision without calling
it, with the reason in the error ("benched after 5 forfeits").

"From then on" must not depend on how the work was cut, or the rows would depend
on the number of workers. So forfeits are counted in PLAN ORDER, item by item
(an item is a line-up and a deal index with all its seatings; item ``i`` is deal
``i // pairings`` of line-up ``i % pairings``), and the entrant is benched from
the item after the one holding its N-th forfeit. The runner commits a run with
benching in plan order and asks :meth:`Bench.scan` about each task before
committing it: if the task holds a new bench point before its last item, the
task is played again with the entrant benched (its earlier items come out the
same), and so is every task after it. The result is the same for any task size,
any number of workers, and a resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl
import pyarrow as pa

BOT_BENCH_AFTER = 10
"""``bench_after`` of an isolated entrant or a bot when the config sets none."""

BENCHED = "benched after "
"""What the error of every seat a benched entrant forfeits unplayed holds
(:meth:`Bench.reason`): the reports count those forfeits by it."""


def benched_after(record: Any) -> str:
    """"benched after 2 forfeits", from run.json's record of a benched entrant ("benched"
    where the record holds no count): the words the console and the report use."""
    after = record.get("forfeits") if isinstance(record, dict) else None
    return f"{BENCHED}{after:,} forfeits" if isinstance(after, int) else "benched"


@dataclass
class Bench:
    """Forfeits per entrant in plan order, and the items from which entrants are benched."""

    after: dict[str, int]
    """Per entrant, the forfeits that bench it (an entrant not named is never benched)."""
    pairing_ids: list[int]
    """Round-robin number of each played line-up, in plan order (rows carry these)."""
    forfeits: dict[str, int] = field(default_factory=dict)
    benched: dict[str, int] = field(default_factory=dict)
    """Label -> the first item it sits out."""

    def reason(self, label: str) -> str:
        count = self.after[label]
        return f"{BENCHED}{count} forfeits; its seats forfeit unplayed"

    def for_tasks(self) -> dict[str, tuple[int, str]]:
        """What a ``TaskSpec`` carries: label -> (first item benched, the forfeits' reason)."""
        return {label: (item, self.reason(label)) for label, item in self.benched.items()}

    def scan(self, seats: pa.Table | pl.DataFrame | pl.LazyFrame, last_item: int) -> dict[str, int]:
        """Count the forfeits of the next rows in plan order, up to item ``last_item``;
        return the bench points they reach.

        A point at or before ``last_item`` means those rows must be played again from
        it with the entrant benched: the counts are then left as they were, to be
        counted again from the replayed rows.
        """
        if not self.after:
            return {}
        frame = (seats if isinstance(seats, pl.LazyFrame)
                 else (seats if isinstance(seats, pl.DataFrame) else pl.from_arrow(seats)).lazy())
        index = pl.DataFrame({"pairing": self.pairing_ids,
                              "lineup": list(range(len(self.pairing_ids)))},
                             schema={"pairing": pl.Int64, "lineup": pl.Int64})
        per_item = (
            frame.filter(pl.col("result") == "forfeit")
            .select(pl.col("pairing").cast(pl.Int64), pl.col("deal").cast(pl.Int64), "strategy")
            .join(index.lazy(), on="pairing")
            .with_columns(item=pl.col("deal") * len(self.pairing_ids) + pl.col("lineup"))
            .group_by("item", "strategy").len()
            .sort("item", "strategy")
            .collect()
        )
        counts = dict(self.forfeits)
        found: dict[str, int] = {}
        for item, label, count in per_item.select("item", "strategy", "len").iter_rows():
            if label in self.benched or label in found or label not in self.after:
                continue
            counts[label] = counts.get(label, 0) + count
            if counts[label] >= self.after[label]:
                found[label] = item + 1
        if not any(point <= last_item for point in found.values()):
            self.forfeits = counts
        self.benched.update(found)
        return found

    def record(self) -> dict[str, dict[str, int]]:
        """For run.json: each benched entrant's first item sat out and the forfeits that did it."""
        return {label: {"from_item": item, "forfeits": self.after[label]}
                for label, item in self.benched.items()}
