"""What several sections must know about a run before they describe it: its game and
table sizes, and the words that follow from them."""

from __future__ import annotations

from dataclasses import dataclass

from whist_sim.reports import analyses
from whist_sim.store import RunFolder

PARTNERSHIP_GAMES = frozenset({"minnesota_whist"})
"""Games of two fixed partnerships (seats 0 and 2 against 1 and 3): head to head and the
ratings compare only seats of opposite sides, since partners always share a net."""


@dataclass(frozen=True)
class RunFacts:
    game: str
    sizes: tuple[int, ...]
    """The table sizes played, smallest first."""

    @classmethod
    def of(cls, folder: RunFolder) -> RunFacts:
        sizes = analyses.table_sizes(folder.scan("seats").select("deal_key")).collect()
        return cls(str(folder.meta()["game"]), tuple(sizes["players"].to_list()))

    @property
    def two(self) -> bool:
        """Two seats at every table: every hand is one duel."""
        return max(self.sizes, default=2) == 2

    @property
    def sides(self) -> bool:
        """A partnership game."""
        return self.game in PARTNERSHIP_GAMES

    @property
    def hands(self) -> str:
        """What a strategy's rows count: hands at two seats, seat-hands at more."""
        return "hands" if self.two else "seat-hands"

    def sizes_text(self) -> str:
        if len(self.sizes) == 1:
            return f"{self.sizes[0]} seats"
        return ("tables of " + ", ".join(str(n) for n in self.sizes[:-1])
                + f" and {self.sizes[-1]} seats")
