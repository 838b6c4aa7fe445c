"""Knock-out Whist report: each analysis on a tiny hand-built run, numbers worked out by hand.

Two entrants A and B, tables of 2 and 3 seats, deal indices 0 and 1, dog's life
``first_knockout``; the first dealer is always seat 0. Seven games, the last
forfeited (left out of every Knock-out analysis). Per round: each player's
tricks; ``*`` marks the trump chooser with (cards of trump, longest suit), ``d``
a player on a dog's life.

    game  (pairing, deal, rot)  seats      rounds                                  winner
    G1    (0, 0, 0)             A B        1: A0 B7; 2: Ad1 B5*(3,3); 3: A0 B5*(1,2)  B
    G2    (0, 0, 1)             B A        1: B3 A4; 2: A6*(2,2) B0; 3: A5*(4,4) Bd0  A
    G3    (1, 0, 0)             A B B      1: A0 B3 B4; 2: Ad0 B2 B4*(2,3);
                                           3: B0 B5*(3,3)                          B (seat 2)
    G4    (0, 1, 0)             A B        1: A4 B3; 2: A6*(3,3) B0; 3: A4*(2,3) Bd1;
                                           4: A1*(1,2) B3; 5: A0 B3*(2,2)             B
    G5    (0, 1, 1)             B A        1: B7 A0; 2: B6*(2,2) Ad0                   B
    G6    (1, 1, 0)             A B B      1: A2 B2 B3; 2: A3 B0 B3*(1,3);
                                           3: A3*(2,2) Bd0 B2; 4: A4*(2,2) B0        A
    G7    (1, 0, 1)             B A B      forfeited in round 1

So A goes out in G1 round 3 (revived dog, then no trick), G3 round 2 (dog
failed), G4 round 5, G5 round 2; it wins G2 and G6.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from random import Random
from typing import Any

import polars as pl
import pytest
from scipy import stats as sps

from tests.report_fixtures import folder_with_rows, rows_by
from tests.tournament_helpers import make_run_without_ray
from whist_sim.cards import SUIT_MASKS
from whist_sim.games.knockout_whist import NAME_TRUMP
from whist_sim.inference import plackett_luce as plackett_luce_module
from whist_sim.reports import analyses, build, plots
from whist_sim.reports import knockout_whist as kw
from whist_sim.reports.build import build_report
from whist_sim.reports.knockout_whist_section import knockout_whist_sections
from whist_sim.reports.stats import no_spread_bounds
from whist_sim.store import RunFolder, tables_for

GAME = "knockout_whist"
T1 = sps.t.ppf(0.975, 1)
"""The t quantile with one degree of freedom (two deal indices): 12.706."""

# A round: {seat: (tricks, dog)} and the chooser as (seat, trump length, longest suit) or None
Round = tuple[dict[int, tuple[int, bool]], tuple[int, int, int] | None]

GAMES: dict[tuple[int, int, int], dict[str, Any]] = {
    (0, 0, 0): dict(seats="AB", winner=1, rounds=[
        ({0: (0, False), 1: (7, False)}, None),
        ({0: (1, True), 1: (5, False)}, (1, 3, 3)),
        ({0: (0, False), 1: (5, False)}, (1, 1, 2)),
    ], out={0: 3}, placing=[2, 1], dog=[True, False], revived=[True, False]),
    (0, 0, 1): dict(seats="BA", winner=1, rounds=[
        ({0: (3, False), 1: (4, False)}, None),
        ({0: (0, False), 1: (6, False)}, (1, 2, 2)),
        ({0: (0, True), 1: (5, False)}, (1, 4, 4)),
    ], out={0: 3}, placing=[2, 1], dog=[True, False], revived=[False, False]),
    (1, 0, 0): dict(seats="ABB", winner=2, rounds=[
        ({0: (0, False), 1: (3, False), 2: (4, False)}, None),
        ({0: (0, True), 1: (2, False), 2: (4, False)}, (2, 2, 3)),
        ({1: (0, False), 2: (5, False)}, (2, 3, 3)),
    ], out={0: 2, 1: 3}, placing=[3, 2, 1], dog=[True, False, False],
        revived=[False, False, False]),
    (0, 1, 0): dict(seats="AB", winner=1, rounds=[
        ({0: (4, False), 1: (3, False)}, None),
        ({0: (6, False), 1: (0, False)}, (0, 3, 3)),
        ({0: (4, False), 1: (1, True)}, (0, 2, 3)),
        ({0: (1, False), 1: (3, False)}, (0, 1, 2)),
        ({0: (0, False), 1: (3, False)}, (1, 2, 2)),
    ], out={0: 5}, placing=[2, 1], dog=[False, True], revived=[False, True]),
    (0, 1, 1): dict(seats="BA", winner=0, rounds=[
        ({0: (7, False), 1: (0, False)}, None),
        ({0: (6, False), 1: (0, True)}, (0, 2, 2)),
    ], out={1: 2}, placing=[1, 2], dog=[False, True], revived=[False, False]),
    (1, 1, 0): dict(seats="ABB", winner=0, rounds=[
        ({0: (2, False), 1: (2, False), 2: (3, False)}, None),
        ({0: (3, False), 1: (0, False), 2: (3, False)}, (2, 1, 3)),
        ({0: (3, False), 1: (0, True), 2: (2, False)}, (0, 2, 2)),
        ({0: (4, False), 2: (0, False)}, (0, 2, 2)),
    ], out={1: 3, 2: 4}, placing=[1, 3, 2], dog=[False, True, False],
        revived=[False, False, False]),
    (1, 0, 1): dict(seats="BAB", winner=None, forfeit=1, rounds=[
        ({0: (2, False), 1: (0, False), 2: (5, False)}, None),
    ], out={}, placing=[None, None, None], dog=[False] * 3, revived=[False] * 3),
}


def key_columns(key: tuple[int, int, int]) -> dict[str, Any]:
    pairing, deal, rotation = key
    return {"deal_key": f"{pairing}-{deal}-{rotation}-0", "pairing": pairing, "deal": deal,
            "rotation": rotation, "hand": 0}


def hand_built_rows(
    specs: dict[tuple[int, int, int], dict[str, Any]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {table: [] for table in tables_for(GAME)}
    for key, spec in (GAMES if specs is None else specs).items():
        seated, winner, forfeit = spec["seats"], spec["winner"], spec.get("forfeit")
        n = len(seated)
        rounds: list[Round] = spec["rounds"]
        rows["deals"].append({
            **key_columns(key), "game": GAME, "game_version": 1,
            "variant": json.dumps({"dogs_life": "first_knockout", "tie_break": "cut"}),
            "seed": key[1], "dealer": 0, "trump": "S", "upcard": "2S", "hands": [""] * n,
            "stock": None, "strategies": list(seated),
            "status": "ok" if forfeit is None else "forfeit", "forfeit_seat": forfeit,
            "error": None if forfeit is None else "boom", "rounds_played": len(rounds),
            "winner": winner, "ended_by": "last_player", "dogs_granted": sum(spec["dog"]),
            "tricks_played": 0, "players": n,
        })
        for seat, label in enumerate(seated):
            won = seat == winner
            result = ("forfeit" if seat == forfeit else "draw") if forfeit is not None else (
                "win" if won else "loss")
            rows["seats"].append({
                **key_columns(key), "seat": seat, "strategy": label, "is_dealer": seat == 0,
                "tricks": 0, "score": float(won), "net": float(n - 1) if won else -1.0,
                "result": result, "out_round": spec["out"].get(seat),
                "placing": spec["placing"][seat], "dog_used": spec["dog"][seat],
                "revived": spec["revived"][seat],
            })
        for number, (players, chooser) in enumerate(rounds, start=1):
            following = rounds[number][0] if number < len(rounds) else {}
            for seat, (tricks, dog) in players.items():
                chose = chooser is not None and chooser[0] == seat
                rows["rounds"].append({
                    **key_columns(key), "round": number, "seat": seat,
                    "strategy": seated[seat], "cards_dealt": 1 if dog else 8 - number,
                    "tricks": tricks, "trump": "S",
                    "trump_chooser": -1 if chooser is None else chooser[0],
                    "chose_trump": chose, "trump_length": chooser[1] if chose else 1,
                    "longest_suit": chooser[2] if chose else 2, "dog": dog,
                    "knocked_out": tricks == 0, "revived": dog and tricks > 0,
                    "dog_granted": not dog and seat in following and following[seat][1],
                })
    return rows


META = {
    "config": {"tournament": {"game": GAME, "deals": 2, "seed": 1, "players": [2, 3]},
               "variant": {"dogs_life": "first_knockout"},
               "strategies": [{"use": "random", "label": x, "params": {}} for x in "AB"]},
    "root_seed": 1, "status": "complete", "game": GAME,
}


def make_folder(path: Path,
                specs: dict[tuple[int, int, int], dict[str, Any]] | None = None) -> RunFolder:
    return folder_with_rows(path, META, GAME, hand_built_rows(specs))


@pytest.fixture
def run(tmp_path: Path) -> RunFolder:
    return make_folder(tmp_path / "knockout")


def games(run: RunFolder) -> pl.LazyFrame:
    return kw.player_games(run.scan("seats"), run.scan("deals"))


# -- the fixture is what the docstring says ----------------------------------------------------


def test_fixture_rounds_deal_one_trick_per_card():
    for spec in GAMES.values():
        for number, (players, _) in enumerate(spec["rounds"], start=1):
            assert sum(t for t, _ in players.values()) == 8 - number


# -- player-games ------------------------------------------------------------------------------


def test_player_games_leave_out_the_forfeited_game(run: RunFolder):
    df = games(run).collect()
    assert df.height == 14  # 2 + 2 + 3 + 2 + 2 + 3 seats
    assert df.filter(pl.col("strategy") == "A").height == 6
    assert sorted(set(df["players"].to_list())) == [2, 3]
    assert df["position"].to_list() == df["seat"].cast(pl.Int64).to_list()  # seat 0 deals


# -- survival ----------------------------------------------------------------------------------


def test_survival_curve_steps_down_to_the_win_rate(run: RunFolder):
    table = rows_by(kw.survival(games(run)).collect(), "strategy", "table", "round")
    # A out in rounds 3 (G1), 2 (G3), 5 (G4), 2 (G5); never in G2 and G6
    curve = [table[("A", kw.ALL, r)]["survival"] for r in range(8)]
    assert curve == pytest.approx([1, 1, 4 / 6, 3 / 6, 3 / 6, 2 / 6, 2 / 6, 2 / 6])
    assert table[("A", kw.ALL, 0)]["players"] == 6
    # after round 2 each deal index keeps 2 of its 3 A players: no spread, so the interval
    # is Wilson's over the 2 deal indices (no width would read as certainty)
    after2 = table[("A", kw.ALL, 2)]
    assert (after2["survival_lo"], after2["survival_hi"]) == pytest.approx(wilson(4 / 6, 2))
    # after round 3: deal 0 keeps 1 of 3 (G2), deal 1 keeps 2 of 3 (G4, G6);
    # residuals 1 - 1.5 and 2 - 1.5, se = sqrt(2 x 0.5) / 6
    after3 = table[("A", kw.ALL, 3)]
    assert after3["survival_hi"] == pytest.approx(min(1.0, 0.5 + T1 / 6))
    assert after3["survival_lo"] == pytest.approx(max(0.0, 0.5 - T1 / 6))
    # B at three seats: out in round 3 (G3 seat 1, G6 seat 1) and 4 (G6 seat 2)
    assert table[("B", "3", 3)]["survival"] == pytest.approx(2 / 4)
    assert table[("B", "3", 7)]["survival"] == pytest.approx(1 / 4)


def test_elimination_rounds_share_every_outcome(run: RunFolder):
    table = rows_by(kw.elimination_rounds(games(run)).collect(), "strategy", "table", "outcome")
    assert table[("A", kw.ALL, "round 2")]["count"] == 2
    assert table[("A", kw.ALL, "round 2")]["share"] == pytest.approx(1 / 3)
    assert table[("A", kw.ALL, "won")]["out_round"] is None
    assert table[("B", kw.ALL, "round 3")]["share"] == pytest.approx(3 / 8)
    assert table[("B", kw.ALL, "won")]["share"] == pytest.approx(4 / 8)
    assert ("A", kw.ALL, "round 1") not in table  # every first knock-out got a dog's life
    shares = kw.elimination_rounds(games(run)).collect().group_by("strategy", "table").agg(
        pl.col("share").sum())
    assert shares["share"].to_list() == pytest.approx([1.0] * shares.height)


# -- wins by table size and seat ---------------------------------------------------------------


def test_win_rate_and_first_round_knockouts_by_table(run: RunFolder):
    table = rows_by(kw.table_results(games(run), run.scan("rounds")).collect(),
                    "strategy", "table")
    a2 = table[("A", "2")]
    # A at two seats: G1 lost, G2 won (deal 0); G4, G5 lost (deal 1)
    assert (a2["players"], a2["wins"], a2["win_rate"], a2["fair_share"]) == (4, 1, 0.25, 0.5)
    # residuals 1 - 0.25 x 2 = 0.5 and -0.5: se = sqrt(2 x 0.5) / 4; clipped to [0, 1]
    assert a2["win_rate_lo"] == 0.0
    assert a2["win_rate_hi"] == 1.0  # 0.25 + 12.7 x 0.25, clipped
    a = table[("A", kw.ALL)]
    assert a["win_rate"] == pytest.approx(1 / 3)
    assert (a["win_rate_lo"], a["win_rate_hi"]) == pytest.approx(wilson(1 / 3, 2))  # no spread
    assert a["fair_share"] == pytest.approx((4 / 2 + 2 / 3) / 6)
    # no trick in round 1: G1, G3, G5 (each saved by a dog's life, so none out in round 1)
    assert (a["first_round_knockouts"], a["first_round_rate"]) == (3, 0.5)
    assert (a["first_round_out"], a["first_round_out_rate"]) == (0, 0.0)
    assert a["placing"] == pytest.approx((2 + 1 + 3 + 2 + 2 + 1) / 6)
    # placings sum to 6 in deal 0 and 5 in deal 1, 3 players each: residuals 0.5 and -0.5,
    # se = sqrt(2 x 0.5) / 6, cut to the placings there are (1 to the largest table's 7)
    assert a["placing_lo"] == pytest.approx(max(1.0, 11 / 6 - T1 / 6))
    assert a["placing_hi"] == pytest.approx(min(7.0, 11 / 6 + T1 / 6))
    b3 = table[("B", "3")]
    assert (b3["players"], b3["wins"], b3["first_round_knockouts"]) == (4, 1, 0)


def test_win_rate_by_seat_from_the_first_dealer(run: RunFolder):
    table = rows_by(kw.win_rate_by_seat(games(run)).collect(), "strategy", "players",
                    "position")
    # A dealt (seat 0) at two seats in G1 and G4, both lost; in seat 1 it won G2, lost G5
    assert table[("A", 2, 0)]["wins"] == 0 and table[("A", 2, 0)]["games"] == 2
    assert table[("A", 2, 1)]["win_rate"] == 0.5
    assert table[("A", 2, 1)]["fair_share"] == 0.5
    # B at three seats, seat 2: won G3 (deal 0), lost G6 (deal 1)
    b = table[("B", 3, 2)]
    assert (b["games"], b["win_rate"]) == (2, 0.5)
    assert b["win_rate_hi"] == 1.0  # 0.5 + 12.7 x 0.5, clipped


# -- dog's life --------------------------------------------------------------------------------


def test_dogs_life_granted_revived_and_how_revived_players_finished(run: RunFolder):
    table = rows_by(kw.dogs_life(games(run)).collect(), "strategy", "table")
    a = table[("A", kw.ALL)]
    # A got a dog's life in G1 (revived, then 2nd), G3 and G5 (both failed)
    assert (a["granted"], a["granted_rate"]) == (3, 0.5)
    assert (a["revived"], a["revival_rate"]) == (1, pytest.approx(1 / 3))
    assert (a["revived_wins"], a["revived_win_rate"], a["revived_placing"]) == (0, 0.0, 2.0)
    assert a["revived_placing_lo"] is None  # one revived player: no interval
    b = table[("B", kw.ALL)]
    # B: G2 (failed), G4 (revived and won), G6 seat 1 (failed)
    assert (b["granted"], b["revived"], b["revived_wins"], b["revived_placing"]) == (3, 1, 1, 1.0)
    assert b["granted_rate"] == pytest.approx(3 / 8)
    assert table[("B", "3")]["revival_rate"] == 0.0


# -- trump choice ------------------------------------------------------------------------------


def test_trump_choice_against_the_longest_suit(run: RunFolder):
    table = rows_by(kw.trump_choice(run.scan("rounds"), run.scan("deals")).collect()
                    .filter(pl.col("table") == kw.ALL), "strategy", "choice")
    a = table[("A", kw.ALL)]
    # A chose in G2 rounds 2, 3; G4 rounds 2, 3, 4; G6 rounds 3, 4
    assert (a["choices"], a["longest"]) == (7, 5)
    assert a["trump_length"] == pytest.approx(16 / 7)
    # 6 cards of trump over 2 choices in deal 0, 10 over 5 in deal 1: residuals 10/7 and
    # -10/7, se = sqrt(2 x 2 x (10/7)²) / 7 = 20/49
    assert a["trump_length_hi"] == pytest.approx(16 / 7 + T1 * 20 / 49)
    assert a["longest_suit"] == pytest.approx(18 / 7)
    # it took most tricks every time but G4 round 4 (1 to B's 3); it always took a trick
    assert a["round_win"] == pytest.approx(6 / 7)
    assert a["survived"] == 1.0
    # deal 0: 2 of 2; deal 1: 4 of 5. Residuals 2/7 and -2/7, se = 4/49
    assert a["round_win_lo"] == pytest.approx(max(0.0, 6 / 7 - T1 * 4 / 49))
    assert a["fair_share"] == pytest.approx((6 / 2 + 1 / 3) / 7)
    shorter = table[("A", kw.SHORTER)]
    assert (shorter["choices"], shorter["round_win"], shorter["trump_length"]) == (
        2, 0.5, 1.5)
    # B tied for most with A in G6 round 2: half a round win
    assert table[("B", kw.SHORTER)]["round_win"] == pytest.approx(2.5 / 3)
    assert table[("B", kw.LONGEST)]["longest_rate"] == 1.0
    assert [c for s, c in table if s == "A"] == [kw.LONGEST, kw.SHORTER, kw.ALL]


def test_trump_choice_keeps_table_sizes_apart(run: RunFolder):
    """A Knock-out probe: every other Knock-out table split 5 and 7 seats, and this one
    pooled them, its fair share a mix of the two sizes."""
    table = rows_by(kw.trump_choice(run.scan("rounds"), run.scan("deals")).collect(),
                    "strategy", "table", "choice")
    two, three = table[("A", "2", kw.ALL)], table[("A", "3", kw.ALL)]
    # A chose in G2 rounds 2, 3 and G4 rounds 2, 3, 4 at two seats, G6 rounds 3, 4 at three
    assert (two["choices"], two["longest"]) == (5, 3)
    assert (three["choices"], three["longest"]) == (2, 2)
    assert two["fair_share"] == pytest.approx(1 / 2)
    # G6: three dealt into round 3 (a dog among them), two into round 4
    assert three["fair_share"] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert table[("A", kw.ALL, kw.ALL)]["choices"] == 7


# -- the generic analyses with several table sizes ---------------------------------------------


def test_seat_position_keeps_table_sizes_apart(run: RunFolder):
    df = analyses.dealer_effect(run.scan("seats")).collect()
    table = rows_by(df, "strategy", "players", "role")
    # A dealt G1, G4 (two seats), G3, G6 (three seats) and the forfeited G7 has B dealing
    assert table[("A", 2, "dealer")]["hands"] == 2
    assert table[("A", 3, "dealer")]["hands"] == 2
    assert ("B", 2, "dealer+2") not in table and ("B", 3, "dealer+2") in table
    sizes = analyses.table_sizes(run.scan("seats")).collect()
    assert sizes.rows() == [(2, 4), (3, 3)]


# -- plots and the report ----------------------------------------------------------------------


def test_the_survival_plot_draws_the_level_after_the_last_round(
        run: RunFolder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """After round 7 the curve is the win rate: it showed only as a drop at the frame's edge."""
    from matplotlib.axes import Axes

    drawn: list[tuple[Any, Any, Any]] = []
    real = Axes.step
    monkeypatch.setattr(Axes, "step", lambda self, x, y, *a, **k: drawn.append(
        (x, y, self)) or real(self, x, y, *a, **k))
    survival = kw.survival(games(run)).collect()
    plots.plot_survival(survival, tmp_path / "s.png")
    assert drawn
    for x, y, ax in drawn:
        assert list(x[-2:]) == [7, 8] and y[-1] == y[-2]  # the last level held a round
        assert ax.get_xlim()[1] >= 8
    last = survival.filter(pl.col("round") == 7).sort("strategy", "table")
    assert sorted(float(y[-1]) for _, y, _ in drawn) == sorted(last["survival"].to_list())


def test_every_knockout_plot_writes_a_png(run: RunFolder, tmp_path: Path):
    g = games(run)
    made = [
        plots.plot_survival(kw.survival(g).collect(), tmp_path / "s.png"),
        plots.plot_elimination_rounds(kw.elimination_rounds(g).collect(), tmp_path / "e.png"),
        plots.plot_win_rate_by_table(kw.table_results(g, run.scan("rounds")).collect(),
                                     tmp_path / "t.png"),
        plots.plot_win_rate_by_seat(kw.win_rate_by_seat(g).collect(), tmp_path / "w.png"),
        plots.plot_dealer(analyses.dealer_effect(run.scan("seats")).collect(),
                          tmp_path / "d.png"),
    ]
    for path in made:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def table_rows(text: str, heading: str, caption: str | None = None) -> list[list[str]]:
    """Rows (cells) of the first table under ``## heading`` (after ``**caption**`` if given)."""
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    if caption is not None:
        section = section.split(f"**{caption}**", 1)[1]
    lines = []
    for line in section.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in lines[2:]]


def survival_columns(text: str) -> dict[str, list[str]]:
    """The survival table by column heading (strategy · table · player-games): its cells after
    rounds 1 to 7."""
    section = text.split("## Knock-out Whist: survival\n", 1)[1]
    header = section.split("| after round |", 1)[1].split("\n", 1)[0]
    columns = [c.strip() for c in header.strip(" |").split(" | ")]
    rows = table_rows(text, "Knock-out Whist: survival")
    return {column: [row[1 + i] for row in rows] for i, column in enumerate(columns)}


def test_seats_are_labelled_one_way_and_the_texts_speak_of_knockout(run: RunFolder):
    """The by-seat table read `dealer, 1, 2` beside the seat section's `dealer, eldest,
    dealer+2`, and the generic texts spoke of Solo Whist's calls and defenders."""
    text = build_report(run.path).markdown.read_text()
    by_seat = table_rows(text, "Knock-out Whist: wins by table size and seat",
                         "By seat from the first dealer: 3 seats")
    positions = table_rows(text, "Seat position", "3 seats")
    assert {r[1] for r in by_seat} == {r[1] for r in positions} == {
        "dealer", "eldest", "dealer+2"}
    two = table_rows(text, "Knock-out Whist: wins by table size and seat",
                     "By seat from the first dealer: 2 seats")
    assert {r[1] for r in two} == {r[1] for r in table_rows(text, "Seat position", "2 seats")
                                   } == {"dealer", "non-dealer"}  # not `eldest` in one only
    assert "Solo Whist" not in text and "defenders of one contract" not in text
    assert "two players who both lost the game" in text


def test_knockout_tables_count_player_games_by_that_name(run: RunFolder):
    text = build_report(run.path).markdown.read_text()
    start = text.index("## Knock-out Whist: survival")
    headers = [line for line in text[start:].splitlines() if line.startswith("| strategy |")
               or line.startswith("| after round |")]
    assert headers and all("| players |" not in h and " players |" not in h for h in headers)
    assert "| player-games |" in text and "· 6 player-games |" in text


def test_report_renders_the_hand_built_numbers(run: RunFolder):
    text = build_report(run.path).markdown.read_text()
    survival = survival_columns(text)
    assert survival["A · all tables · 6 player-games"][:2] == [  # no spread: Wilson's, 2 deals
        "1.00",  # after round 1: 1 by the rules under a dog's life, so no interval
        "0.67 [{:.2f}, {:.2f}]".format(*wilson(4 / 6, 2))]
    wins = {(r[0], r[1]): r for r in table_rows(
        text, "Knock-out Whist: wins by table size and seat", "By table size")}
    assert wins[("A", "all")][3] == "0.333 [{:.3f}, {:.3f}]".format(*wilson(1 / 3, 2))
    dogs = {(r[0], r[1]): r for r in table_rows(text, "Knock-out Whist: dog's life")}
    assert dogs[("A", "all")][3].startswith("3 · 0.500 [")
    trumps = {(r[0], r[1], r[2]): r for r in table_rows(text, "Knock-out Whist: trump choice")}
    assert trumps[("A", "all", "all")][3] == "7"
    assert (trumps[("A", "2", "all")][3], trumps[("A", "3", "all")][3]) == ("5", "2")
    assert "tables of 2 and 3 seats" in text
    assert "**2 seats**" in text and "**3 seats**" in text and "| strategy | position |" in text


def test_shares_the_rules_fix_show_no_interval(run: RunFolder):
    """Under a dog's life nobody goes out in round 1, and a trump choice of the `longest`
    rows named a longest suit by the row's definition; Wilson's interval of such a share,
    `0.000 [0.000, 0.204]` or `1.000 [0.796, 1.000]`, read as if a fifth of the players
    might have gone out, or a fifth of the choices been shorter suits (a probe)."""
    text = build_report(run.path).markdown.read_text()
    wins = {(r[0], r[1]): r for r in table_rows(
        text, "Knock-out Whist: wins by table size and seat", "By table size")}
    assert {row[6] for row in wins.values()} == {"0.000"}  # out in round 1
    assert all("[" in row[5] for row in wins.values())  # first-round knock-outs keep theirs
    assert "`out in round 1` is 0 by the rules" in text
    trumps = {(r[0], r[1], r[2]): r for r in table_rows(text, "Knock-out Whist: trump choice")}
    split = [row for (_, _, choice), row in trumps.items() if choice != "all"]
    assert split and {row[4] for row in split} <= {"1.000", "0.000"}
    assert "[" in trumps[("A", "all", "all")][4]


def test_dogs_life_off_shows_dashes_not_an_interval_about_zero(tmp_path: Path):
    """With `dogs_life = "off"` the section promised a dash ("nothing to measure") and read
    `0 · 0.000 [0.000, 0.114]` granted, an interval about a share the rules fix at 0 (a
    probe). Survival after round 1 and `out in round 1` keep their intervals: without a
    dog's life players do go out in round 1."""
    rows = hand_built_rows()  # the fixture's games, their dog's lives taken out
    for row in rows["deals"]:
        row.update(variant=json.dumps({"dogs_life": "off", "tie_break": "cut"}),
                   dogs_granted=0)
    for row in rows["seats"]:
        row.update(dog_used=False, revived=False)
    for row in rows["rounds"]:
        row.update(dog=False, revived=False, dog_granted=False)
    folder = folder_with_rows(tmp_path / "off", META, GAME, rows)
    text = build_report(folder.path).markdown.read_text()
    dogs = table_rows(text, "Knock-out Whist: dog's life")
    assert dogs and {row[3] for row in dogs} == {"0 · —"}
    assert "without dog's life" in text
    assert "by the rules" not in text.split("## Knock-out Whist: trump choice")[0]


def test_the_forfeits_section_says_the_knockout_sections_leave_forfeits_out(run: RunFolder):
    """"Forfeits count as losses everywhere else in this report", beside Knock-out sections
    that leave the forfeited game out for every seat (a probe)."""
    text = build_report(run.path).markdown.read_text()
    forfeits = text.split("## Forfeits\n", 1)[1].split("\n## ", 1)[0]
    assert "everywhere else in this report." not in forfeits
    assert "the Knock-out Whist sections leave forfeited games out for every seat" in forfeits
    # nor do head to head and the ratings compare the seats a forfeit stopped (a probe)
    assert "do not compare the other seats with one another" in forfeits


# -- the verdict's share of games is the sections' -----------------------------------------

G7_FINISHED = dict(seats="BAB", winner=1, rounds=[
    ({0: (3, False), 1: (4, False), 2: (0, False)}, None),
    ({0: (2, False), 1: (4, False), 2: (0, True)}, (1, 3, 3)),
    ({0: (0, False), 1: (5, False)}, (1, 2, 3)),
], out={0: 3, 2: 2}, placing=[2, 1, 3], dog=[False, False, True], revived=[False] * 3)
"""G7 played out instead of forfeited: A (seat 1) wins it."""


def verdict_text(folder: RunFolder, out: Path) -> str:
    from whist_sim.reports.verdict_section import verdict_section

    [section] = verdict_section(folder, out)
    return "\n".join(section.paragraphs)


def test_the_verdict_gives_the_pooled_share_of_games_the_knockout_sections_give(
        tmp_path: Path):
    """At 3 seats A wins G3 lost and G7 won at deal index 0 (1 of 2), G6 at deal index 1
    (1 of 1): 2 of 3 games, 66.7%, where the mean of the deal indices' shares is 75.0%.
    The verdict said "wins 70.0% of its games" (that mean) beside the sections' 0.667 for
    the same games (a probe); it now gives the pooled share, with the sections' interval."""
    folder = make_folder(tmp_path / "knockout", {**GAMES, (1, 0, 1): G7_FINISHED})
    table = rows_by(kw.table_results(games(folder), folder.scan("rounds")).collect(),
                    "strategy", "table")
    a3 = table[("A", "3")]
    assert (a3["wins"], a3["players"]) == (2, 3)
    text = verdict_text(folder, tmp_path / "out")
    assert (f"A wins 66.7% of its games at 3 seats (2 of 3 player-games; 95%:"
            f" {100 * a3['win_rate_lo']:.1f} to {100 * a3['win_rate_hi']:.1f}%, over 2 deals),"
            " against a fair share of 33.3%") in text
    assert "A wins 75.0%" not in text
    # B holds two seats of each game at 3: 1 of 4 at deal 0, 0 of 2 at deal 1 (mean 12.5%)
    assert "B wins 16.7% of its games at 3 seats (1 of 6 player-games;" in text
    assert ". A (25.0% at 2, 66.7% at 3; 1.00x a fair share)" in text  # the ranking too


def test_a_forfeiters_share_in_the_verdict_says_why_it_differs_from_the_sections(
        run: RunFolder, tmp_path: Path):
    """The verdict counts a forfeited game as lost by its forfeiter; the Knock-out sections
    leave it out. A forfeited G7 at 3 seats: 1 of 3 in the verdict, 1 of 2 in the sections,
    and the verdict's sentence says why in one clause."""
    table = rows_by(kw.table_results(games(run), run.scan("rounds")).collect(),
                    "strategy", "table")
    assert (table[("A", "3")]["wins"], table[("A", "3")]["players"]) == (1, 2)
    text = verdict_text(run, tmp_path / "out")
    assert ("A wins 33.3% of its games at 3 seats (1 of 3 player-games, counting as lost the"
            " 1 it forfeited, which the Knock-out Whist sections leave out; 95%:") in text
    assert "A wins 25.0% of its games at 2 seats (1 of 4 player-games; 95%:" in text


# -- end to end on a real (small) run ----------------------------------------------------------


class LongTrump:
    """Test entrant: names its longest suit as trump (lowest suit on a tie), plays at random."""

    games = frozenset({GAME})
    version = "1"

    def choose(self, view: Any, rng: Random) -> int:
        if view.phase == "trump":
            lengths = [(view.hand & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
            return NAME_TRUMP + lengths.index(max(lengths))
        legal = view.legal
        return rng.choice([a for a in range(legal.bit_length()) if legal >> a & 1])


CONFIG = f"""
[tournament]
game = "knockout_whist"
deals = 6
seed = 9
players = [3, 5]
[variant]
dogs_life = "first_knockout"
[[strategies]]
use = "{__name__}:LongTrump"
label = "long"
[[strategies]]
use = "random"
"""


@pytest.mark.slow
def test_build_report_on_a_real_knockout_run(tmp_path: Path):
    run = make_run_without_ray(tmp_path, CONFIG)
    paths = build_report(run)
    assert paths.markdown.is_file() and paths.html.is_file()
    assert set(paths.images) >= {"standings", "head_to_head", "ratings", "dealer", "points",
                                 "knockout_survival", "knockout_elimination",
                                 "knockout_win_by_table", "knockout_win_by_seat"}
    for image in paths.images.values():
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text, page = paths.markdown.read_text(), paths.html.read_text()
    for heading in ("Knock-out Whist: survival", "Knock-out Whist: wins by table size and seat",
                    "Knock-out Whist: dog's life", "Knock-out Whist: trump choice"):
        assert f"## {heading}" in text and f"<h2>{heading}</h2>" in html.unescape(page)

    folder = RunFolder.open(run)
    seats = pl.read_parquet([str(p) for p in folder.parquet_files("seats")])
    rounds = pl.read_parquet([str(p) for p in folder.parquet_files("rounds")])
    sizes = seats.group_by("deal_key").len()
    seats = seats.join(sizes, on="deal_key")
    wins = {(r[0], r[1]): r for r in table_rows(
        text, "Knock-out Whist: wins by table size and seat", "By table size")}
    survival = {tuple(k.split(" · ")[:2]): v for k, v in survival_columns(text).items()}
    dogs = {(r[0], r[1]): r for r in table_rows(text, "Knock-out Whist: dog's life")}
    for label in ("long", "random"):
        for size in (3, 5):
            mine = seats.filter((pl.col("strategy") == label) & (pl.col("len") == size))
            won = (mine["result"] == "win").sum()
            assert wins[(label, str(size))][2] == str(mine.height)
            assert wins[(label, str(size))][3].startswith(f"{won / mine.height:.3f}")
            alive = mine.filter(pl.col("out_round").is_null() | (pl.col("out_round") > 2))
            assert survival[(label, f"{size} seats")][1].startswith(
                f"{alive.height / mine.height:.2f}")
            granted = mine["dog_used"].sum()
            assert dogs[(label, str(size))][3].startswith(f"{granted} · ")
    trumps = {(r[0], r[1], r[2]): r for r in table_rows(text, "Knock-out Whist: trump choice")}
    chosen = rounds.filter(pl.col("chose_trump") & (pl.col("strategy") == "long"))
    assert trumps[("long", "all", "all")][3] == str(chosen.height) > "0"
    # always a longest suit: no spread, so Wilson's interval over the deal indices
    assert trumps[("long", "all", "all")][4] == "1.000 [{:.3f}, 1.000]".format(
        wilson(1.0, chosen["deal"].n_unique())[0])
    assert not any(choice == "shorter" for (label, _, choice) in trumps if label == "long")


def test_build_registers_the_knockout_sections():
    assert build.GAME_SECTIONS[GAME] is knockout_whist_sections


def wilson(share: float, units: int) -> tuple[float, float]:
    """A rate's interval where its units showed no spread: Wilson's over the units, widened
    at a handful of them (``no_spread_bounds``)."""
    return no_spread_bounds(share, units)


def test_seat_position_intervals_cluster_by_deal_index_like_the_knockout_section(
        tmp_path: Path):
    """Knock-out Whist deals each deal index's cards to the same seats in every seating,
    and the dealer is seat 0: a strategy dealing at five seats held the same cards in
    several of its games. The generic seat-position table gave Wilson's interval over
    hands, about 40% narrower than the Knock-out section's interval of the very same
    rate clustered by deal index (a reader's probe); now both are clustered alike."""
    body = """
[tournament]
game = "knockout_whist"
players = 5
deals = 12
seed = 8
deals_per_task = 4

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
"""
    run = RunFolder.open(make_run_without_ray(tmp_path, body, per_task=4))
    generic = rows_by(analyses.dealer_effect(run.scan("seats")).collect(),
                      "strategy", "position")
    by_seat = rows_by(kw.win_rate_by_seat(games(run)).collect(), "strategy", "position")
    for strategy in ("heuristic", "random"):
        mine, theirs = generic[(strategy, 0)], by_seat[(strategy, 0)]
        assert mine["hands"] == theirs["games"] and mine["wins"] == theirs["wins"]
        assert (mine["win_rate_lo"], mine["win_rate_hi"]) == pytest.approx(
            (theirs["win_rate_lo"], theirs["win_rate_hi"]))


def test_a_placing_interval_stays_within_the_placings_there_are():
    """From two deal indices a revived dog's mean placing read "2.00 [-10.71, 14.71]" at a
    table of three (a reader's probe); like a rate's, it is cut where a placing cannot go."""
    bounds = pl.DataFrame({"table": ["3", "all"], "placing_lo": [-10.71, -3.0],
                           "placing_hi": [14.71, 12.0]}).with_columns(
        *kw._placing_bounds("placing"))
    assert bounds.rows() == [("3", 1.0, 3.0), ("all", 1.0, 7.0)]


def test_a_ratings_fit_that_does_not_converge_is_said_and_the_rest_of_the_report_stands(
        run: RunFolder, monkeypatch: pytest.MonkeyPatch):
    """A fit that stops short of its maximum raised out of ``build_report``: a traceback, and
    none of the other sections, for a limit of one analysis. The ratings section now says
    why it has no ratings, and the verdict makes no claim from them."""
    monkeypatch.setattr(plackett_luce_module, "MAX_ITERATIONS", 1)
    text = build_report(run.path).markdown.read_text()
    ratings = text[text.index("## Ratings (finishing order)"):]
    ratings = ratings[:ratings.index("\n## ", 5)]
    assert "The ratings could not be fitted: Plackett-Luce MM did not converge in 1" in ratings
    assert "| strategy |" not in ratings  # no table of ratings it did not find
    assert "## Knock-out Whist: dog's life" in text and "## Standings" in text
    assert "The ratings rank" not in text and "The ratings order" not in text
