"""Minnesota Whist report: each analysis on a tiny hand-built run, numbers worked out by hand.

The fixture is one line-up of partnerships P = (A, B) and Q = (C, C), seated
P1 Q1 P2 Q2 = A C B C (pairing 0), on deal indices 0 and 1, each a game in
rotation 0 (A C B C: side 0 is A+B) and rotation 1 (C A C B: side 0 is C+C).
Default scoring: granders with 7+ tricks score tricks - 6, else the other side
2 x (tricks - 6); in a null hand the side with 6 or fewer scores 7 - tricks.

    deal      (deal, rot, hand)  bidding (seat: laid card)          tricks   points
    D1        (0, 0, 0)          0:2D 1:3H 2:5S -> B2 grands         8-5      2-0
    D2        (0, 0, 1)          all red: null hand                  4-9      3-0
    D3        (0, 1, 0)          1:KS -> A1 grands                   9-4      6-0
    D4        (1, 0, 0)          1:7C -> C1 grands                   6-7      0-1
    D5        (1, 1, 0)          1:4H 2:QS -> C2 grands              10-3     4-0
    D6        (1, 1, 1)          all red: null hand                  7-6      0-1
    D7        (1, 1, 2)          forfeited (left out of deal analyses)

(``B2`` is strategy B in seat 2; tricks and points are side 0 - side 1.)
Games (``matches``): A+B wins (0, 0) and (1, 1), C+C wins (0, 1) and (1, 0).
Hands hold only the cards that carry high-card points (A=4 K=3 Q=2 J=1).
"""

from __future__ import annotations

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
from whist_sim.reports import analyses, build, plots
from whist_sim.reports import minnesota_whist as mw
from whist_sim.reports.build import build_report
from whist_sim.reports.document import fmt
from whist_sim.reports.minnesota_whist_section import minnesota_whist_sections
from whist_sim.reports.stats import no_spread_bounds
from whist_sim.store import RunFolder, tables_for, to_arrow
from whist_sim.tournament.schedule import rotate

GAME = "minnesota_whist"
LINEUP = ("A", "C", "B", "C")
T1 = sps.t.ppf(0.975, 1)
"""The t quantile with one degree of freedom (two duplicate sets): 12.706."""

HANDS_0 = ["AS KH 2C", "QS 3D", "AS AH KS QD", "JC"]  # HCP 7, 2, 13, 1
HANDS_1 = ["KS QH JD", "2S", "AH AD", "KC"]  # 6, 0, 8, 3
HANDS_2 = ["2C", "AS KS QS", "KH", "QH QD"]  # 0, 9, 3, 4
HANDS_3 = ["2S", "AC", "KC JD", "QS"]  # 0, 4, 4, 2

# (deal, rotation, hand): dealer, laid cards (seat order), side tricks, hands
DEALS: dict[tuple[int, int, int], dict[str, Any]] = {
    (0, 0, 0): dict(dealer=0, laid=["2D", "3H", "5S", "4C"], tricks=[8, 5], hands=HANDS_0),
    (0, 0, 1): dict(dealer=1, laid=["2H", "3D", "4H", "5D"], tricks=[4, 9], hands=HANDS_1),
    (0, 1, 0): dict(dealer=0, laid=["9D", "KS", "2H", "2S"], tricks=[9, 4], hands=HANDS_0),
    (1, 0, 0): dict(dealer=0, laid=["2C", "7C", "8S", "JH"], tricks=[6, 7], hands=HANDS_2),
    (1, 1, 0): dict(dealer=0, laid=["AC", "4H", "QS", "5D"], tricks=[10, 3], hands=HANDS_2),
    (1, 1, 1): dict(dealer=1, laid=["TD", "8H", "2D", "6H"], tricks=[7, 6], hands=HANDS_3),
    (1, 1, 2): dict(dealer=2, laid=["AS", "2H", "3H", "4H"], tricks=[1, 0], hands=HANDS_3,
                    forfeit=2),
}
WINNER_SIDE = {(0, 0): 0, (0, 1): 0, (1, 0): 1, (1, 1): 1}
"""Game (deal, rotation) -> the side that won it (A+B: side 0 in rotation 0, 1 in rotation 1)."""


def bidding(dealer: int, laid: list[str]) -> tuple[int | None, list[int]]:
    """Turn laid cards from the dealer's left until the first black one: (grander, turned)."""
    turned = []
    for offset in range(1, 5):
        seat = (dealer + offset) % 4
        turned.append(seat)
        if laid[seat][-1] in "SC":
            return seat, turned
    return None, turned


def points(grander: int | None, tricks: list[int]) -> list[int]:
    """Default scoring, as docs/rules/minnesota-whist.md states it."""
    scored = [0, 0]
    if grander is None:
        fewer = 0 if tricks[0] < tricks[1] else 1
        scored[fewer] = 7 - tricks[fewer]
    elif tricks[grander % 2] >= 7:
        scored[grander % 2] = tricks[grander % 2] - 6
    else:
        scored[1 - grander % 2] = 2 * (tricks[1 - grander % 2] - 6)
    return scored


def key_columns(key: tuple[int, int, int]) -> dict[str, Any]:
    deal, rotation, hand = key
    return {"deal_key": f"0-{deal}-{rotation}-{hand}", "pairing": 0, "deal": deal,
            "rotation": rotation, "hand": hand}


def hand_built_rows(deals: dict[tuple[int, int, int], dict[str, Any]] = DEALS,
                    bid: str = "cards") -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {table: [] for table in tables_for(GAME)}
    for key, spec in deals.items():
        deal, rotation, hand = key
        seated = rotate(LINEUP, rotation)
        forfeit = spec.get("forfeit")
        if bid == "cards":
            grander, turned = bidding(spec["dealer"], spec["laid"])
            laid, calls = spec["laid"], ""
        else:
            grander, turned, laid, calls = spec["grander"], [], None, spec["calls"]
        scored = points(grander, spec["tricks"]) if forfeit is None else [13, 0]
        rows["deals"].append({
            **key_columns(key), "game": GAME, "game_version": 1,
            "variant": json.dumps({"bid": bid, "scoring": "default", "target": 13}),
            "seed": deal * 10 + hand, "dealer": spec["dealer"], "trump": "none",
            "upcard": None, "hands": spec["hands"], "stock": None, "strategies": list(seated),
            "status": "ok" if forfeit is None else "forfeit", "forfeit_seat": forfeit,
            "error": None if forfeit is None else "boom",
            "hand_type": "null" if grander is None else "grand", "grander": grander,
            "laid": laid, "turned": turned, "calls": calls, "side_tricks": spec["tricks"],
            "side_points": scored, "score_before": [0, 0],
        })
        for seat, label in enumerate(seated):
            net = float(scored[seat % 2] - scored[1 - seat % 2])
            result = "forfeit" if seat == forfeit else (
                "win" if net > 0 else "loss" if net < 0 else "draw")
            rows["seats"].append({
                **key_columns(key), "seat": seat, "strategy": label,
                "is_dealer": seat == spec["dealer"], "tricks": 3,
                "score": float(scored[seat % 2]), "net": net, "result": result,
            })
    for (deal, rotation), side in WINNER_SIDE.items():
        for seat, label in enumerate(rotate(LINEUP, rotation)):
            rows["matches"].append({
                "pairing": 0, "deal": deal, "rotation": rotation, "seat": seat,
                "strategy": label, "hands_played": 2, "hands_won": 1, "points": 0.0,
                "result": "win" if seat % 2 == side else "loss",
            })
    return rows


META = {
    "config": {"tournament": {"game": GAME, "deals": 2, "seed": 1,
                              "partnerships": [["A", "B"], ["C", "C"]]},
               "variant": {},
               "strategies": [{"use": "random", "label": x, "params": {}} for x in "ABC"]},
    "root_seed": 1, "status": "complete", "game": GAME,
}


def make_folder(path: Path) -> RunFolder:
    return folder_with_rows(path, META, GAME, hand_built_rows())


@pytest.fixture
def run(tmp_path: Path) -> RunFolder:
    return make_folder(tmp_path / "minnesota")


def seat_rows(run: RunFolder) -> pl.LazyFrame:
    return mw.seat_deals(run.scan("seats"), run.scan("deals"))


# -- the fixture is what the docstring says ---------------------------------------------------


def test_fixture_scores_as_the_docstring_table():
    table = {key: points(bidding(s["dealer"], s["laid"])[0], s["tricks"])
             for key, s in DEALS.items() if "forfeit" not in s}
    assert list(table.values()) == [[2, 0], [3, 0], [6, 0], [0, 1], [4, 0], [0, 1]]
    assert [bidding(s["dealer"], s["laid"])[0] for s in DEALS.values()][:6] == [
        2, None, 1, 1, 2, None]


# -- high-card points and seat rows -------------------------------------------------------------


def test_hcp_counts_aces_four_kings_three_queens_two_jacks_one():
    df = pl.DataFrame({"hand": ["AS KH QD JC TS 9H", "2C 3D", "AS AH AD AC KS KH KD KC",
                                "QS QH QD QC JS JH JD JC TS 9S 8S 7S 6S"]})
    assert df.select(mw.hcp(pl.col("hand")))["literal"].to_list() == [10, 0, 28, 12]


def test_seat_rows_name_each_sides_partnership_and_choice(run: RunFolder):
    df = seat_rows(run).collect().sort("deal_key", "seat")
    assert df.height == 24  # six played deals, the forfeited one left out
    d1 = df.filter(pl.col("deal_key") == "0-0-0-0")
    assert d1["partnership"].to_list() == ["A+B", "C+C", "A+B", "C+C"]
    # turned from the dealer's left: C1 red, B2 black and granded; C3's black card and
    # A0's red one were never turned, so neither chose anything that counted
    assert d1["choice"].to_list() == [None, "pass", "grand", None]
    assert d1["hcp"].to_list() == [7, 2, 13, 1]
    assert d1["granded"].to_list() == [True, False, True, False]
    assert d1["success"].to_list() == [True, False, True, False]  # side 0 took 8
    assert d1["net"].to_list() == [2.0, -2.0, 2.0, -2.0]
    d3 = df.filter(pl.col("deal_key") == "0-0-1-0")
    # rotation 1: C A C B, so side 0 is C+C and A+B sits in seats 1 and 3
    assert d3["partnership"].to_list() == ["C+C", "A+B", "C+C", "A+B"]
    assert d3["points"].to_list() == [6.0, 0.0, 6.0, 0.0]  # A1's grand failed: 2 x (9 - 6)
    assert d3["success"].to_list() == [False] * 4


def test_spoken_bidding_reads_the_calls(tmp_path: Path):
    spoken = {(0, 0, 0): dict(dealer=0, grander=2, calls="1:pass 2:grand", tricks=[7, 6],
                              hands=HANDS_0)}
    rows = hand_built_rows(spoken, bid="spoken")
    seats, deals = (pl.from_arrow(to_arrow(t, GAME, rows[t])).lazy() for t in ("seats", "deals"))
    df = mw.seat_deals(seats, deals).collect().sort("seat")
    # seat 1 said pass, seat 2 grand; seats 3 and 0 were never asked
    assert df["choice"].to_list() == [None, "pass", "grand", None]


# -- summary per partnership and per strategy ------------------------------------------------------


def summary(run: RunFolder) -> dict[Any, dict[str, Any]]:
    return rows_by(mw.summary(seat_rows(run), run.scan("matches")).collect(), "kind", "name")


def test_grand_rate_and_success_per_partnership(run: RunFolder):
    table = summary(run)
    ab = table[("partnership", "A+B")]
    # A+B granded D1 (B2, took 8) and D3 (A1, took 4): both in set 0, of 3 deals each set
    assert (ab["deals"], ab["sets"], ab["grands"], ab["successes"]) == (6, 2, 2, 1)
    assert ab["grand_rate"] == pytest.approx(1 / 3)
    # cluster se: residuals 2 - 3/3 = 1 and 0 - 1 = -1, se = sqrt(2 * 2) / 6 = 1/3; clipped
    assert ab["grand_rate_lo"] == 0.0 and ab["grand_rate_hi"] == 1.0
    assert ab["grand_success"] == pytest.approx(0.5)
    assert ab["grand_success_lo"] is None  # every grand in one duplicate set
    cc = table[("partnership", "C+C")]
    assert (cc["grands"], cc["successes"], cc["grand_success"]) == (2, 2, 1.0)


def test_points_per_grand_split_own_grands_from_the_opponents_and_per_null_hand(
        run: RunFolder):
    table = summary(run)
    ab = table[("partnership", "A+B")]
    # its own grands D1 (B2: 2) and D3 (A1: 0), both in set 0: the hands of `success`
    assert (ab["grands"], ab["own_grand_points"]) == (2, pytest.approx(1.0))
    assert ab["own_grand_points_lo"] is None  # one deal index: no interval
    # C+C's grands D4 (0) and D5 (0), both in set 1; null hands D2 (3), D6 (1)
    assert (ab["their_grands"], ab["their_grand_points"]) == (2, 0.0)
    assert ab["null_hands"] == 2
    assert ab["null_points"] == pytest.approx(2.0)
    # 2 -+ T1 x 1 = -10.71 and 14.71: cut to what one hand can give (0 to 14)
    assert (ab["null_points_lo"], ab["null_points_hi"]) == (0.0, 14.0)
    cc = table[("partnership", "C+C")]
    assert cc["own_grand_points"] == pytest.approx((1 + 4) / 2)  # D4, D5
    assert cc["their_grand_points"] == pytest.approx((0 + 6) / 2)  # D1, D3: A1's failed
    # set sums 0 over D1 and 6 over D3 are both in set 0
    assert cc["their_grand_points_lo"] is None
    assert cc["null_points"] == 0.0


def test_game_win_rate_counts_each_game_once_per_partnership(run: RunFolder):
    table = summary(run)
    ab = table[("partnership", "A+B")]
    assert (ab["games"], ab["wins"], ab["game_win_rate"]) == (4, 2, 0.5)
    # one win in each duplicate set: no spread between sets, so the interval is Wilson's
    # over the 2 sets, widened at so few (no width would read as certainty)
    assert (ab["game_win_rate_lo"], ab["game_win_rate_hi"]) == pytest.approx(
        no_spread_bounds(0.5, 2))


def test_strategy_rows_count_each_seat(run: RunFolder):
    table = summary(run)
    a, c = table[("strategy", "A")], table[("strategy", "C")]
    assert (a["deals"], a["grands"], a["games"]) == (6, 2, 4)
    # C holds two seats of every deal and game, with the same results: same rates as C+C
    assert (c["deals"], c["grands"], c["games"], c["wins"]) == (12, 4, 8, 4)
    assert c["grand_success"] == 1.0
    assert (c["own_grand_points"], c["their_grand_points"]) == pytest.approx((2.5, 3.0))
    assert list(table)[:2] == [("partnership", "A+B"), ("partnership", "C+C")]


# -- the value of granding by hand strength --------------------------------------------------------


def test_grand_value_curves_by_hcp(run: RunFolder):
    values = mw.grand_value_by_hcp(seat_rows(run), band=4).collect()
    cells = rows_by(values, "strategy", "choice", "hcp")
    # pooled, band 0-3, pass: C1 in D1 (-2), C1 in D2 (-3), C3 in D2 (-3) in set 0;
    # C0 in D6 (-1), B3 in D6 (+1) in set 1
    cell = cells[(mw.ALL, "pass", 0)]
    assert (cell["seats"], cell["sets"], cell["hcp_hi"]) == (5, 2, 3)
    assert cell["net"] == pytest.approx(-8 / 5)
    # residuals -8 - (-1.6 x 3) = -3.2 and 0 - (-1.6 x 2) = 3.2: se = sqrt(2 x 2 x 3.2²) / 5
    # -1.6 -+ T1 x 1.28 = -17.86 and 14.66: cut to what a hand can give (+-14)
    assert -1.6 - T1 * 1.28 < -14.0 < 14.0 < -1.6 + T1 * 1.28
    assert (cell["net_lo"], cell["net_hi"]) == (-14.0, 14.0)
    assert cell["points"] == pytest.approx(1 / 5)
    # grands at 0-3 HCP: A1 with 2 in D3 (-6), C2 with 3 in D5 (+4)
    assert cells[(mw.ALL, "grand", 0)]["net"] == pytest.approx(-1.0)
    assert cells[("B", "grand", 12)]["net"] == 2.0  # B2 granded D1 with 13
    assert cells[("A", "pass", 4)]["seats"] == 2  # A0 in D2 (6), A1 in D6 (4)
    assert ("B", "pass", 8) in cells and ("C", "grand", 8) in cells
    # A: D2, D3, D5, D6; not D1 (red, never turned) nor D4 (black, never turned)
    assert values.filter(pl.col("strategy") == "A")["seats"].sum() == 4


def test_grand_vs_pass_side_by_side(run: RunFolder):
    wide = rows_by(mw.grand_vs_pass(mw.grand_value_by_hcp(seat_rows(run), band=4)).collect(),
                   "strategy", "hcp")
    band8 = wide[(mw.ALL, 8)]
    # grand: C1 with 9 in D4 (+1); pass: B2 with 8 in D2 (+3), A1 with 9 in D5 (-4)
    assert (band8["grand_seats"], band8["pass_seats"]) == (1, 2)
    assert band8["gain"] == pytest.approx(1 - (-0.5))
    assert wide[(mw.ALL, 4)]["grand_seats"] is None and wide[(mw.ALL, 4)]["gain"] is None
    # B2 granded with 13 in D1; C2's red card in D3 (13) was never turned: no pass there
    assert wide[(mw.ALL, 12)]["pass_seats"] is None and wide[(mw.ALL, 12)]["gain"] is None


def test_grand_threshold_is_the_lowest_band_above_which_granding_always_gained():
    gains = {4: -1.0, 8: 0.5, 12: -0.2, 16: 1.0, 20: 2.0}
    rows = []
    for hcp, gain in gains.items():
        for choice, net in (("grand", gain), ("pass", 0.0)):
            rows.append({"strategy": "X", "choice": choice, "hcp": hcp, "hcp_hi": hcp + 3,
                         "seats": 5, "sets": 2, "points": 0.0, "points_lo": None,
                         "points_hi": None, "net": net, "net_lo": None, "net_hi": None})
    rows.append({**rows[0], "strategy": "Y", "hcp": 24, "net": -1.0})  # Y: grand only
    frame = pl.LazyFrame(rows)
    table = rows_by(mw.grand_threshold(frame).collect(), "strategy")
    assert (table["X"]["threshold"], table["X"]["bands"], table["X"]["grands"]) == (16, 5, 25)
    # the threshold rests on the bands from it up, 16 and 20: their seats, not all 25
    assert (table["X"]["grands_from"], table["X"]["passes_from"]) == (10, 10)
    assert "Y" not in table  # no band with both choices
    assert mw.grand_threshold(pl.LazyFrame([r for r in rows if r["hcp"] < 16 or
                                            r["strategy"] == "Y"]))\
        .collect()["threshold"].to_list() == [None]  # the top band compared lost
    lost = mw.grand_threshold(pl.LazyFrame([r for r in rows if r["hcp"] < 16])).collect()
    assert lost.select("grands_from", "passes_from").row(0) == (None, None)  # shown "—"


def test_threshold_of_the_fixture(run: RunFolder):
    table = rows_by(mw.grand_threshold(mw.grand_value_by_hcp(seat_rows(run), band=4))
                    .collect(), "strategy")
    # pooled bands with both choices: 0 (gain +0.6) and 8 (+1.5): granding gained in both
    assert table[mw.ALL]["bands"] == 2 and table[mw.ALL]["threshold"] == 0
    # C: only band 0 has both: grand C2 with 3 (+4) against passes -2, -3, -3, -1
    assert table["C"]["threshold"] == 0


# -- the generic analyses with partnerships -----------------------------------------------------


def test_head_to_head_with_sides_compares_only_opponents(run: RunFolder):
    seats = run.scan("seats")
    both = rows_by(analyses.head_to_head(seats).collect(), "strategy", "opponent")
    sides = rows_by(analyses.head_to_head(seats, sides=True).collect(), "strategy", "opponent")
    assert ("A", "B") in both and ("A", "B") not in sides  # partners are never compared
    ac = sides[("A", "C")]
    # 7 deals, A against the two C seats in each
    assert (ac["hands"], ac["comparisons"]) == (7, 14)
    pairwise = analyses.pairwise_results(seats, sides=True).collect()
    assert set(zip(pairwise["strategy"], pairwise["opponent"], strict=True)) == {
        ("A", "C"), ("C", "A"), ("B", "C"), ("C", "B")}


# -- plots and the report -------------------------------------------------------------------------


def test_grand_value_plot_writes_a_png(run: RunFolder, tmp_path: Path):
    values = mw.grand_value_by_hcp(seat_rows(run), band=2).collect()
    path = plots.plot_grand_value_by_hcp(values, tmp_path / "g.png")
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


def test_count_columns_and_their_words_name_what_they_count(run: RunFolder):
    """The granding table's count column is hands for a partnership, seat-hands for a
    strategy, and the standings' words name the column `seat-hands` as headed."""
    text = build_report(run.path).markdown.read_text()
    header = text.split("**Granding**", 1)[1].split("\n")[2]
    assert "| hands / seat-hands |" in header
    assert "| points per own grand [95% CI] | points per opponents' grand [95% CI] |" in header
    assert "`seat-hands` is every hand it played, once per seat it held" in text
    assert "`hands` is every hand it played" not in text


def test_the_generic_texts_speak_of_minnesota_not_solo(run: RunFolder):
    text = build_report(run.path).markdown.read_text()
    assert "Solo Whist" not in text and "defenders of one contract" not in text
    assert "in Minnesota Whist it bids first and leads a null hand" in text


def test_the_texts_follow_the_runs_scoring(tmp_path: Path):
    """Under `scoring = "pagat"` the report said a failed grand gives the other side "2 per
    trick over six" and a side's own points are "0 when the other side scored", the default
    scoring's rules (a probe)."""
    pagat = {**META, "variant": {"scoring": "pagat", "bid": "cards", "target": 13}}
    folder = folder_with_rows(tmp_path / "pagat", pagat, GAME, hand_built_rows())
    texts = {s.title: " ".join(s.paragraphs) for s in minnesota_whist_sections(folder, tmp_path)}
    assert "2 per trick over six" not in texts["Minnesota Whist: when to grand"]
    assert "1 per trick over six for the other side" in texts["Minnesota Whist: when to grand"]
    assert "a negative figure" in texts["Minnesota Whist: granding and games"]


def test_the_default_scoring_texts(run: RunFolder, tmp_path: Path):
    texts = {s.title: " ".join(s.paragraphs) for s in minnesota_whist_sections(run, tmp_path)}
    assert "2 per trick over six for the other side" in texts["Minnesota Whist: when to grand"]
    assert "(0 when the other side scored)" in texts["Minnesota Whist: granding and games"]


def test_the_standings_say_what_a_minnesota_forfeit_costs(run: RunFolder):
    """The standings said a forfeit is "a loss by the largest score the variant allows",
    German Whist's rule, of every game (a probe)."""
    text = build_report(run.path).markdown.read_text()
    assert "largest score the variant allows" not in text
    assert "the other side scores `target` points" in text
    assert "side whose points in it exceed the other side's win it" in text


def test_report_renders_the_hand_built_numbers(run: RunFolder):
    text = build_report(run.path).markdown.read_text()
    rows = {(r[0], r[1]): r for r in table_rows(text, "Minnesota Whist: granding and games")}
    ab = rows[("partnership", "A+B")]
    assert ab[2:4] == ["6", "2"]  # hands, deal indices
    assert ab[4] == "2 · 0.333 [0.000, 1.000]"
    assert ab[5] == "1 · 0.500"
    games = {(r[0], r[1]): r for r in table_rows(text, "Minnesota Whist: granding and games",
                                                  "Games")}
    lo, hi = no_spread_bounds(0.5, 2)  # one win in each of the 2 sets
    assert games[("partnership", "A+B")][2:] == ["4", f"0.500 [{lo:.3f}, {hi:.3f}]"]
    assert rows[("strategy", "C")][2] == "12"
    curve = {r[0]: r for r in table_rows(
        text, "Minnesota Whist: when to grand",
        "Grand against pass by high-card points: all strategies")}
    # band 12-13: grand B2 with 13 in D1 (+2, points 2); no pass (C2's red card in D3
    # was never turned)
    assert curve["12–13"][1:] == ["1 · 2.00 · 2.00", "—", "—"]
    assert "only seats of opposite partnerships are compared" in text


# -- end to end on a real (small) run -------------------------------------------------------------


class Layer:
    """Test entrant: lays a black card (grands) when its hand has ``grand_at`` high-card
    points or more, else a red one if it can; plays at random."""

    games = frozenset({GAME})
    version = "1"

    def __init__(self, grand_at: int = 12) -> None:
        self.grand_at = grand_at

    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        cards = [c for c in range(52) if legal >> c & 1]
        if view.phase == "lay":
            points = sum(max(0, c % 13 - 8) for c in cards)  # J=1 .. A=4
            black = SUIT_MASKS[0] | SUIT_MASKS[3]
            wanted = [c for c in cards if bool(black >> c & 1) == (points >= self.grand_at)]
            return rng.choice(wanted or cards)
        return rng.choice(cards)


CONFIG = f"""
[tournament]
game = "minnesota_whist"
deals = 12
seed = 5
partnerships = [["bold", "random"], ["shy", "shy"]]
[[strategies]]
use = "{__name__}:Layer"
label = "bold"
params = {{ grand_at = 6 }}
[[strategies]]
use = "{__name__}:Layer"
label = "shy"
params = {{ grand_at = 16 }}
[[strategies]]
use = "random"
"""


@pytest.mark.slow
def test_build_report_on_a_real_minnesota_run(tmp_path: Path):
    run = make_run_without_ray(tmp_path, CONFIG)
    paths = build_report(run)
    assert paths.markdown.is_file() and paths.html.is_file()
    assert set(paths.images) >= {"standings", "head_to_head", "ratings", "dealer", "points",
                                 "minnesota_grand_value"}
    for image in paths.images.values():
        assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text, page = paths.markdown.read_text(), paths.html.read_text()
    for heading in ("Minnesota Whist: granding and games", "Minnesota Whist: when to grand"):
        assert f"## {heading}" in text and f"<h2>{heading}</h2>" in page

    folder = RunFolder.open(run)
    deals = pl.read_parquet([str(p) for p in folder.parquet_files("deals")])
    matches = pl.read_parquet([str(p) for p in folder.parquet_files("matches")])
    played = deals.filter(pl.col("status") == "ok")
    rows = {(r[0], r[1]): r for r in table_rows(text, "Minnesota Whist: granding and games")}
    game_rows = {(r[0], r[1]): r for r in table_rows(text, "Minnesota Whist: granding and games",
                                                      "Games")}
    for label in ("bold+random", "shy+shy"):
        grands = successes = 0
        for deal in played.iter_rows(named=True):
            side = next(s for s in (0, 1)
                        if f"{deal['strategies'][s]}+{deal['strategies'][s + 2]}" == label)
            if deal["grander"] is not None and deal["grander"] % 2 == side:
                grands += 1
                successes += deal["side_tricks"][side] >= 7
        cells = rows[("partnership", label)]
        assert cells[2] == str(played.height)
        assert cells[3] == str(played["deal"].n_unique())  # deal indices
        assert cells[4].startswith(f"{grands} · {fmt(grands / played.height)} [")
        assert cells[5].startswith(f"{successes} · {fmt(successes / grands)}")
        first = label.split("+")[0]
        games = matches.filter((pl.col("seat") < 2) & (pl.col("strategy") == first))
        wins = (games["result"] == "win").sum()
        assert game_rows[("partnership", label)][2] == str(games.height)
        assert game_rows[("partnership", label)][3].startswith(f"{wins / games.height:.3f}")
    # the bold seats grand far more often than the shy ones
    assert rows[("strategy", "bold")][4] != rows[("strategy", "shy")][4]

    # two cells of the curves, from the deals directly: hands of 14-27 points, granded by a
    # "bold" seat; hands of 0-13 points whose "shy" seat laid a red card that was turned
    hcp_of = {"A": 4, "K": 3, "Q": 2, "J": 1}
    grand_nets: list[int] = []
    pass_nets: list[int] = []
    for deal in played.iter_rows(named=True):
        for seat in range(4):
            hcp = sum(hcp_of.get(card[0], 0) for card in deal["hands"][seat].split())
            net = deal["side_points"][seat % 2] - deal["side_points"][1 - seat % 2]
            label = deal["strategies"][seat]
            if label == "bold" and deal["grander"] == seat and 14 <= hcp < 28:
                grand_nets.append(net)
            if (label == "shy" and deal["laid"][seat][-1] in "HD" and hcp < 14
                    and seat in deal["turned"]):
                pass_nets.append(net)
    values = rows_by(mw.grand_value_by_hcp(
        mw.seat_deals(folder.scan("seats"), folder.scan("deals")), band=14).collect(),
        "strategy", "choice", "hcp")
    for cell, nets in ((values[("bold", "grand", 14)], grand_nets),
                       (values[("shy", "pass", 0)], pass_nets)):
        assert cell["seats"] == len(nets) > 0
        assert cell["net"] == pytest.approx(sum(nets) / len(nets))


def test_build_registers_the_minnesota_sections():
    assert build.GAME_SECTIONS[GAME] is minnesota_whist_sections


def test_a_partnership_keeps_one_label_in_both_games_of_a_set(tmp_path: Path):
    """Rotation 1 seats (P1, P2) against (Q1, Q2) as Q2 P1 Q1 P2: Q's seats in seat
    order read Q2+Q1, and a label in seat order split Q's games into two rows, each
    with one game a set (a reader's probe: 0.275 and 0.188 where the partnership won
    0.231 of its 160 games)."""
    body = """
[tournament]
game = "minnesota_whist"
deals = 4
seed = 3
partnerships = [["heuristic", "random"], ["random_b", "heuristic_b"]]

[variant]
target = 5

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"

[[strategies]]
use = "random"
label = "random_b"

[[strategies]]
use = "heuristic"
label = "heuristic_b"
"""
    run = RunFolder.open(make_run_without_ray(tmp_path, body))
    rows = mw.seat_deals(run.scan("seats"), run.scan("deals")).collect()
    assert set(rows["partnership"]) == {"heuristic+random", "random_b+heuristic_b"}
    per_set = rows.group_by("pairing", "deal", "partnership").agg(
        pl.col("rotation").n_unique().alias("games"))
    assert per_set["games"].to_list() == [2] * per_set.height  # both games, one label
    # the games table labels a partnership as the granding table does: in seat order its
    # games were split into a row with no hands and a row of half the games (a probe)
    table = mw.summary(mw.seat_deals(run.scan("seats"), run.scan("deals")),
                       run.scan("matches")).filter(pl.col("kind") == mw.PARTNERSHIP).collect()
    assert sorted(table["name"]) == ["heuristic+random", "random_b+heuristic_b"]
    sets = rows.select("pairing", "deal").unique().height
    assert table["games"].to_list() == [2 * sets, 2 * sets]  # every game of every set


def test_the_standings_of_a_game_without_draws_show_no_draw_rate(run: RunFolder):
    """Every row read a draw rate of ``0.000 [0.000, 0.088]``, as if a Minnesota hand could
    be drawn (a probe)."""
    text = build_report(run.path).markdown.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| strategy")
                  and "win rate" in line)
    assert "draw rate" not in header and "mean net" in header
    assert "Minnesota Whist has no draw rate" in text


@pytest.mark.parametrize(("scoring", "bound"), [("default", 14.0), ("pagat", 7.0)])
def test_grand_value_intervals_stay_within_what_one_hand_can_give(scoring: str, bound: float):
    """Two deal indices give a t-interval of one degree of freedom: a cell read
    `-1.00 [-64.53, 62.53]`, where no hand's net can pass 14 under the default scoring, nor
    7 under pagat's (a probe). A mean over hands lies within a hand's range: the interval
    is cut to it."""
    sets = pl.LazyFrame({
        "strategy": ["A"] * 2, "choice": ["grand"] * 2, "hcp": [10] * 2,
        "pairing": [0, 0], "deal": [0, 1], "n": [1, 1],
        "points": [0.0, bound], "net": [-bound, bound]})
    row = mw.grand_value_of(sets, 2, scoring).collect().row(0, named=True)
    assert row["net"] == 0.0 and row["points"] == bound / 2
    assert (row["net_lo"], row["net_hi"]) == (-bound, bound)
    low = 0.0 if scoring == "default" else -bound
    assert (row["points_lo"], row["points_hi"]) == (low, bound)


def test_points_per_grand_intervals_stay_within_what_one_hand_can_give(run: RunFolder):
    """The granding table's points per grand and per null hand are means of one hand's
    points: their intervals are cut to a hand's range, as the curves' are."""
    rows = mw.summary(seat_rows(run), run.scan("matches")).collect()
    for name in ("own_grand_points", "their_grand_points", "null_points"):
        bounds = rows.select(pl.col(f"{name}_lo").min(), pl.col(f"{name}_hi").max()).row(0)
        assert bounds[0] is None or bounds[0] >= 0.0
        assert bounds[1] is None or bounds[1] <= 14.0
