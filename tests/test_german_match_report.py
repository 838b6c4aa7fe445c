"""The German Whist report's Matches section, on a tiny hand-built best-of-3 run.

Three entrants A, B, C in a two-player round robin: line-ups (A, B), (A, C), (B, C),
deal indices 0 and 1, each played in both seatings: 12 matches. ``HANDS`` gives each
match's hands in order, each as the index in its line-up of the entrant that won it (7
points, as under ``count = "stage2"``), ``"fB"`` for a hand B forfeited (its opponent
wins it, 7 points) and ``"ff"`` for a hand every seat forfeited (no one wins or scores,
and the match stops: drawn when level).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.report_fixtures import folder_with_rows, rows_by
from whist_sim.reports import german_whist as gw
from whist_sim.reports.build import build_report
from whist_sim.reports.document import fmt_ci
from whist_sim.reports.german_whist_match_section import match_sections
from whist_sim.reports.stats import ratio_interval
from whist_sim.store import RunFolder, tables_for
from whist_sim.tournament.schedule import rotate

GAME = "german_whist"
LINEUPS = [("A", "B"), ("A", "C"), ("B", "C")]
HANDS: dict[tuple[int, int, int], list[Any]] = {
    (0, 0, 0): [0, 0], (0, 0, 1): [1, 0, 0], (0, 1, 0): [1, 1], (0, 1, 1): [0, 1, 1],
    (1, 0, 0): [0, 0], (1, 0, 1): [0, 1, 0], (1, 1, 0): [1, 0, 1], (1, 1, 1): [0, 0],
    (2, 0, 0): ["fB", 1], (2, 0, 1): [0, 0], (2, 1, 0): [1, 0, 1], (2, 1, 1): [1, 0, "ff"],
}
POINTS = 7.0


def _hand_rows(key: tuple[int, int, int], hand: int, winner: Any) -> tuple[list, dict]:
    """The seats rows and the deals row of one hand."""
    pairing, deal, rotation = key
    lineup, seated = LINEUPS[pairing], rotate(LINEUPS[pairing], key[2])
    forfeiter = {"fB": "B", "ff": "every"}.get(winner) if isinstance(winner, str) else None
    if forfeiter == "B":
        winner = 1 - lineup.index("B")
    seats = []
    for seat, label in enumerate(seated):
        if forfeiter == "every":
            result, net = "forfeit", 0.0
        elif lineup.index(label) == winner:
            result, net = "win", POINTS
        else:
            result, net = ("forfeit" if forfeiter == label else "loss"), -POINTS
        seats.append({"seat": seat, "strategy": label, "is_dealer": seat == hand % 2,
                      "tricks": 13, "score": max(net, 0.0), "net": net, "result": result})
    keys = {"deal_key": f"{pairing}-{deal}-{rotation}-{hand}", "pairing": pairing,
            "deal": deal, "rotation": rotation, "hand": hand}
    forfeit_seat = (None if forfeiter is None else
                    seated.index("B") if forfeiter == "B" else 0)
    deal_row = {
        **keys, "task": 0, "game": GAME, "game_version": 1,
        "variant": json.dumps({"match": "best_of_3"}), "seed": deal, "dealer": hand % 2,
        "trump": "S", "upcard": "AS", "hands": ["", ""], "stock": "",
        "strategies": list(seated), "status": "ok" if forfeiter is None else "forfeit",
        "forfeit_seat": forfeit_seat, "error": None if forfeiter is None else "boom",
        "stage1_tricks": [6, 7], "stage2_tricks": [7, 6], "tricks_played": 26,
        "race_winner": None,
    }
    return [{**keys, **row} for row in seats], deal_row


def match_rows() -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {table: [] for table in tables_for(GAME)}
    for key, hands in HANDS.items():
        seated = rotate(LINEUPS[key[0]], key[2])
        won, points = {label: 0 for label in seated}, {label: 0.0 for label in seated}
        for hand, winner in enumerate(hands):
            seats, deal = _hand_rows(key, hand, winner)
            rows["seats"] += seats
            rows["deals"].append(deal)
            for row in seats:
                won[row["strategy"]] += row["result"] == "win"
                points[row["strategy"]] += row["net"]
        for seat, label in enumerate(seated):
            other = seated[1 - seat]
            result = ("draw" if won[label] == won[other] else
                      "win" if won[label] > won[other] else "loss")
            rows["matches"].append({
                "pairing": key[0], "deal": key[1], "rotation": key[2], "seat": seat,
                "strategy": label, "hands_played": len(hands), "hands_won": won[label],
                "points": points[label], "result": result})
    return rows


def meta(match: str) -> dict[str, Any]:
    variant = {"count": "stage2", "match": match, "open_stock": 1, "trumps": "upcard"}
    return {"config": {"tournament": {"game": GAME, "deals": 2, "seed": 5}, "variant": variant,
                       "strategies": [{"use": "random", "label": x, "params": {}}
                                      for x in "ABC"]},
            "root_seed": 5, "status": "complete", "game": GAME, "variant": variant}


@pytest.fixture
def best_of_3_run(tmp_path: Path) -> RunFolder:
    return folder_with_rows(tmp_path / "best-of-3", meta("best_of_3"), GAME, match_rows())


def test_match_results_count_wins_draws_points_and_hands_per_match(best_of_3_run: RunFolder):
    """By hand from ``HANDS``: A won 4 of its 4 matches on deal 0 and 1 of 4 on deal 1; B 1
    and 2 (its one draw on deal 1), C 1 and 2 (the same draw)."""
    results = rows_by(gw.match_results(best_of_3_run.scan("matches"),
                                       best_of_3_run.scan("seats")).collect(), "strategy")
    a, b, c = results["A"], results["B"], results["C"]
    assert [(r["matches"], r["pairs"], r["deals"]) for r in (a, b, c)] == [(8, 4, 2)] * 3
    assert (a["win_rate"], b["win_rate"], c["win_rate"]) == (5 / 8, 3 / 8, 3 / 8)
    assert (a["draw_rate"], b["draw_rate"], c["draw_rate"]) == (0.0, 1 / 8, 1 / 8)
    # A's points per deal index: 14 + 7 + 14 + 7 = 42 on deal 0, -14 - 7 - 7 + 14 = -14 on 1
    interval = ratio_interval([42.0, -14.0], [4.0, 4.0])
    assert a["points"] == pytest.approx(3.5)
    assert (a["points_lo"], a["points_hi"]) == pytest.approx((interval.lo, interval.hi))
    # hands: A 2 + 3 + 2 + 3 on deal 0 and 2 + 3 + 3 + 2 on deal 1; C 2 + 3 + 2 + 2, 3 + 2 + 3 + 3
    assert a["hands_per_match"] == 2.5 and a["hands_per_match_lo"] == a["hands_per_match_hi"]
    assert c["hands_per_match"] == 20 / 8
    # B forfeited a hand of (2, 0, 0) and, with C, the last hand of (2, 1, 1)
    assert (a["forfeited"], b["forfeited"], c["forfeited"]) == (0, 2, 1)
    win = ratio_interval([4.0, 1.0], [4.0, 4.0])
    assert (a["win_rate_lo"], a["win_rate_hi"]) == pytest.approx(
        (max(win.lo, 0.0), min(win.hi, 1.0)))


def test_pairwise_match_win_rates_leave_draws_out_both_ways(best_of_3_run: RunFolder):
    pairwise = rows_by(gw.match_pairwise_of(gw.match_pairwise_parts(
        best_of_3_run.scan("matches"), best_of_3_run.scan("seats"))).collect(),
        "strategy", "opponent")
    assert {key: row["win_rate"] for key, row in pairwise.items()} == {
        ("A", "B"): 0.5, ("B", "A"): 0.5, ("A", "C"): 0.75, ("C", "A"): 0.25,
        ("B", "C"): 0.25, ("C", "B"): 0.5}
    assert pairwise[("B", "C")]["draw_rate"] == 0.25 and pairwise[("A", "B")]["matches"] == 4


def test_the_matches_section_shows_the_figures_and_says_how_forfeits_count(
        best_of_3_run: RunFolder):
    [section] = match_sections(best_of_3_run, best_of_3_run.meta()["variant"])
    assert section.title == "German Whist: matches"
    text = " ".join(section.paragraphs)
    assert "`match = \"best_of_3\"`" in text and "a draw is not half a win" in text
    assert "forfeited hand counts in its match as lost by the seat that forfeited" in text
    results, pairwise = section.tables
    assert results.header[4:6] == ["match win rate [95% CI]", "draw rate [95% CI]"]
    row = {cells[0]: cells for cells in results.rows}["A"]
    interval = ratio_interval([42.0, -14.0], [4.0, 4.0])
    assert row[:4] == ["A", "8", "4", "2"]
    assert row[6] == fmt_ci({"p": 3.5, "p_lo": interval.lo, "p_hi": interval.hi}, "p", 2)
    assert row[7] == "2.50 [no spread]" and row[8] == "0"
    assert pairwise.header == ["strategy \\ opponent", "A", "B", "C"]
    assert pairwise.rows[0][2].startswith("0.500 [") and pairwise.rows[0][3].startswith("0.750 [")


def test_the_report_has_a_matches_section_for_best_of_3_and_none_for_single(tmp_path: Path):
    rows = match_rows()
    best_of = folder_with_rows(tmp_path / "best-of-3", meta("best_of_3"), GAME, rows)
    assert "## German Whist: matches" in build_report(best_of.path).markdown.read_text()
    single_rows = {**rows, "matches": [dict(row, hands_played=1) for row in rows["matches"]]}
    single = folder_with_rows(tmp_path / "single", meta("single"), GAME, single_rows)
    text = build_report(single.path).markdown.read_text()
    assert "## German Whist: tricks by stage" in text and "German Whist: matches" not in text


def test_a_run_without_a_drawn_match_shows_no_draw_rate(tmp_path: Path):
    rows = match_rows()
    rows["matches"] = [dict(row, result="win" if row["result"] == "draw" and row["seat"] == 0
                            else "loss" if row["result"] == "draw" else row["result"])
                       for row in rows["matches"]]
    folder = folder_with_rows(tmp_path / "no-draws", meta("best_of_3"), GAME, rows)
    [section] = match_sections(folder, folder.meta()["variant"])
    assert "draw rate [95% CI]" not in section.tables[0].header
    assert "no match of this run was, so the table has no draw rate" in " ".join(
        section.paragraphs)


def test_match_figures_read_in_ranges_of_deal_indices_equal_the_whole_table(
        best_of_3_run: RunFolder):
    from polars.testing import assert_frame_equal

    from whist_sim.reports.chunks import DealRanges

    ranges = DealRanges.of(best_of_3_run, hands=10)
    assert len(ranges.bounds) == 2
    parts, pairwise = ranges.collect_all(lambda scan: [
        gw.match_parts(scan("matches"), scan("seats")),
        gw.match_pairwise_parts(scan("matches"), scan("seats"))])
    matches, seats = best_of_3_run.scan("matches"), best_of_3_run.scan("seats")
    assert_frame_equal(gw.match_results_of(parts.lazy()).collect(),
                       gw.match_results(matches, seats).collect(), rel_tol=1e-12)
    assert_frame_equal(gw.match_pairwise_of(pairwise.lazy()).collect(),
                       gw.match_pairwise_of(gw.match_pairwise_parts(matches, seats)).collect(),
                       rel_tol=1e-12)
