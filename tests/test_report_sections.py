

def test_points_per_hand_shares_are_counted_as_the_standings_count_them():
    """2,878 hands won of 4,000 read 72.0% in the standings and 71.9% here, where the
    shares of each winning score were added (0.71949...): a newcomer's probe."""
    import polars as pl

    from whist_sim.reports.points_section import summary_table

    hands = {-1: 1122, 1: 419, 2: 519, 3: 153, 4: 1331, 5: 456}
    points = pl.DataFrame({"strategy": ["a"] * len(hands), "net": list(hands),
                           "hands": list(hands.values()),
                           "share": [count / 4000 for count in hands.values()]})
    assert sum(points.filter(pl.col("net") > 0)["share"]) < 0.7195  # the sum that misled
    [row] = summary_table(points, "hands").rows
    assert row[2:5] == ["28.0%", "0.0%", "72.0%"]  # 0.2805 and 0.7195: half to even, 100%


def test_a_rate_and_its_percentage_round_alike():
    """1,155 of 1,200 hands read 0.963 as a rate and 96.2% as a share in one report."""
    from whist_sim.reports.document import fmt, percent

    for won, of in ((1155, 1200), (45, 1200), (13, 16), (1, 8)):
        share = won / of
        assert percent(share) == f"{float(fmt(share)) * 100:.1f}%", (won, of)
    assert (fmt(0.9625), percent(0.9625), fmt(0.0375), percent(0.0375)) == (
        "0.962", "96.2%", "0.038", "3.8%")


def test_a_share_and_its_complement_add_up_once_rounded():
    """A head-to-head table read 0.518 and 0.483 for 207 and 193 of 400 (rounding half up)."""
    from decimal import Decimal

    from whist_sim.reports.document import fmt, percent

    for won, of in ((207, 400), (1155, 1200), (3, 8), (1, 16), (385, 1000)):
        share, other = won / of, (of - won) / of
        assert Decimal(fmt(share)) + Decimal(fmt(other)) == 1, (won, of)
        assert Decimal(percent(share, sign=False)) + Decimal(percent(other, sign=False)) == 100


def test_the_run_table_writes_counts_and_switches_as_the_rest_of_the_report():
    from whist_sim.reports.run_section import _count, variant_text

    assert _count(5900) == "5,900" and _count("—") == "—"
    assert variant_text('{"overtricks": false, "prop_and_cop": true, "stake": 1}') == (
        "overtricks = false, prop_and_cop = true, stake = 1")


def test_the_contest_plot_breaks_its_line_at_a_rank_with_no_decision(tmp_path, monkeypatch):
    """A strategy's line ran straight over rank T, where it had no decision."""
    import polars as pl
    from matplotlib.axes import Axes

    from whist_sim.reports import plots

    drawn = []
    real = Axes.plot
    monkeypatch.setattr(Axes, "plot", lambda self, x, y, *a, **k: drawn.append(y)
                        or real(self, x, y, *a, **k))
    contest = pl.DataFrame({"strategy": ["s"] * 3, "trump_prize": [True] * 3,
                            "rank_order": [7, 9, 12], "contest_rate": [0.5, 0.25, 1.0]})
    plots.plot_contest_by_rank(contest, tmp_path / "contest.png")
    [line] = [y for y in drawn if len(y) == 13 and (y == y).sum() == 3]
    assert line[8] != line[8] and line[7] == 0.5 and line[9] == 0.25  # rank T: a gap


def test_a_net_gain_over_a_handful_of_ducks_is_not_shown():
    """A strategy that contested 749 of 750 times showed a net gain of 4.56 over its one
    duck, beside a count of 750 (a probe)."""
    from whist_sim.reports.german_whist_section import FEWEST_FOR_A_GAIN, shown_gain

    lopsided = {"contested": 749, "ducked": 1, "net_gain": 4.56}
    assert shown_gain(lopsided, 2) == "—"
    even = {"contested": FEWEST_FOR_A_GAIN, "ducked": FEWEST_FOR_A_GAIN, "net_gain": 0.5}
    assert shown_gain(even, 2) == "0.50"


def test_an_interval_on_one_side_of_zero_shows_enough_decimals_to_say_so():
    """A decided Solo difference of 0.001 to 0.075 points read [0.00, 0.08] (a probe)."""
    from whist_sim.reports.document import fmt_ci

    row = {"net": 0.038, "net_lo": 0.001, "net_hi": 0.075}
    assert fmt_ci(row, "net", 2) == "0.038 [0.001, 0.075]"
    assert fmt_ci({"net": -0.5, "net_lo": -0.9, "net_hi": -0.1}, "net", 2) == (
        "-0.50 [-0.90, -0.10]")
    assert fmt_ci({"net": 0.03, "net_lo": -0.001, "net_hi": 0.07}, "net", 2) == (
        "0.03 [0.00, 0.07]")  # an interval across zero keeps its usual decimals
