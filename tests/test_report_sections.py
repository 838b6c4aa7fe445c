import pytest


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


def test_the_most_frequent_net_names_every_score_tied_for_it():
    """Nets 1 and 3 each held 12.1% of a strategy's hands, and the column named 1 alone,
    as if it were the one most frequent score (an analyst's probe)."""
    import polars as pl

    from whist_sim.reports.points_section import summary_table

    hands = {-2: 10, 1: 121, 2: 50, 3: 121, 4: 98}
    points = pl.DataFrame({"strategy": ["a"] * len(hands), "net": list(hands),
                           "hands": list(hands.values()),
                           "share": [count / 400 for count in hands.values()]})
    [row] = summary_table(points, "hands").rows
    assert row[-1] == "1 and 3 (30.2% each)"
    single = points.with_columns(hands=pl.Series([10, 121, 50, 120, 99]))
    [row] = summary_table(single, "hands").rows
    assert row[-1] == "1 (30.2%)"


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


def test_the_run_table_says_play_out_is_on_where_overtricks_imply_it():
    """A Solo run with ``overtricks = true`` and ``play_out`` left out (null: implied) read
    ``play_out = off`` in the run table, though every hand was played out (a probe)."""
    from whist_sim.reports.run_section import variant_text

    assert variant_text('{"overtricks": true, "play_out": null, "target": null}') == (
        "overtricks = true, play_out = on (overtricks implies it), target = off")
    assert variant_text('{"overtricks": false, "play_out": null}') == (
        "overtricks = false, play_out = off")
    assert variant_text('{"stake": 1.0, "target": 20.5}') == "stake = 1, target = 20.5"


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


GERMAN_DEFAULTS = {"count": "stage2", "match": "single", "open_stock": 1, "race_to": None,
                   "trumps": "upcard"}


def test_the_contest_section_speaks_of_trumps_only_where_the_variant_has_them():
    """Under trumps = "none" it said "or a trump when it held none of that suit"."""
    from whist_sim.reports.german_whist_section import contest_intro

    default = " ".join(contest_intro(GERMAN_DEFAULTS))
    assert "or a trump when it held none of that suit" in default
    no_trumps = " ".join(contest_intro({**GERMAN_DEFAULTS, "trumps": "none"}))
    assert "has no trumps" in no_trumps
    assert "a trump when" not in no_trumps and "trump means" not in no_trumps


def test_the_contest_section_says_an_open_stocks_prize_is_the_winners_choice():
    """Under open_stock = 3 it said the winner takes "the face-up stock card" and a duck
    draws "the unseen card", while its rates by prize mixed the follower's choices with
    the opponent's (random's contest rate fell from 0.94 on a 2 to 0.33 on an ace, against
    0.79 and 0.53 with one face-up card)."""
    from whist_sim.reports.german_whist_section import contest_intro

    default = " ".join(contest_intro(GERMAN_DEFAULTS))
    assert "takes the face-up stock card" in default and "open_stock" not in default
    opened = " ".join(contest_intro({**GERMAN_DEFAULTS, "open_stock": 3}))
    assert "the top 3 stock cards lie face up" in opened
    assert "the face-up stock card" not in opened and "the unseen card" not in opened
    assert "after a duck the card its opponent chose" in opened


def test_tricks_by_stage_says_a_race_stops_the_hand_and_what_the_count_scores():
    """Under race_to = 5 it said stage 2 is "the last 13", beside 6.1 stage-2 tricks a
    hand; under count = "all" it said stage 2 is what "the classic count scores"."""
    from whist_sim.reports.german_whist_section import stage_intro

    assert "the only tricks this variant's `count = \"stage2\"` scores" in stage_intro(
        GERMAN_DEFAULTS)
    assert "the tricks of both stages count" in stage_intro({**GERMAN_DEFAULTS,
                                                              "count": "all"})
    race = stage_intro({**GERMAN_DEFAULTS, "race_to": 5})
    assert "last 13" not in race and "Under `race_to = 5` a hand stops" in race
    assert "race_to" not in stage_intro(GERMAN_DEFAULTS)


def test_the_points_figures_score_labels_do_not_run_into_each_other(tmp_path, monkeypatch):
    """Under count = "weighted" two entrants' 36 scores, -17.5 to 17.5, printed one label
    under every bar of a 1,100 px figure, an unreadable run of digits (a probe)."""
    import itertools

    import matplotlib.image
    import polars as pl
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from whist_sim.reports import plots

    scores = [k + 0.5 for k in range(-18, 18)]
    points = pl.DataFrame({"strategy": ["a"] * 36 + ["b"] * 36, "net": scores * 2,
                           "share": [1 / 36] * 72})
    drawn = []
    save = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, path: (drawn.append(fig), save(fig, path))[1])
    plots.plot_points_distribution(points, tmp_path / "points.png")
    assert matplotlib.image.imread(tmp_path / "points.png").shape[1] <= 1100
    renderer = FigureCanvasAgg(drawn[0]).get_renderer()
    shown = [label for label in drawn[0].axes[0].get_xticklabels() if label.get_text()]
    assert len(shown) >= 6, "enough scores are still named to read the axis"
    boxes = [label.get_window_extent(renderer) for label in shown]
    for left, right in itertools.pairwise(boxes):
        assert left.x1 < right.x0, (left, right)


def test_the_standings_fair_line_allows_for_drawn_hands():
    """Under count = "all" two copies of random won 0.453 [0.438, 0.467] of their hands
    each (9.5% drawn), wholly left of the figure's "fair share 1/2" line."""
    from types import SimpleNamespace

    import polars as pl

    from whist_sim.reports.standings_section import fair_win_rate

    facts = SimpleNamespace(game="german_whist", sizes=[2], sides=None)
    drawn = pl.DataFrame({"strategy": ["random", "random_b"], "hands": [800, 800],
                          "win_rate": [0.4525, 0.4525], "draw_rate": [0.095, 0.095]})
    value, label = fair_win_rate(facts, drawn)
    assert value == pytest.approx((1 - 0.095) / 2) and "draw" in label
    none_drawn = drawn.with_columns(win_rate=pl.lit(0.5), draw_rate=pl.lit(0.0))
    assert fair_win_rate(facts, none_drawn) == (0.5, "fair share 1/2")


def test_the_knockout_standings_fair_line_allows_for_forfeited_games():
    """A forfeited Knock-out game has no winner (the other seats record a draw): with a
    forfeiting entrant every other one sat below the figure's "fair share 1/3"."""
    from types import SimpleNamespace

    import polars as pl

    from whist_sim.reports.standings_section import fair_win_rate

    facts = SimpleNamespace(game="knockout_whist", sizes=[3], sides=None)
    forfeited = pl.DataFrame({"strategy": ["a", "b", "crash"], "hands": [300, 300, 300],
                              "win_rate": [0.30, 0.28, 0.02],
                              "draw_rate": [0.20, 0.20, 0.0]})
    value, label = fair_win_rate(facts, forfeited)
    assert value == pytest.approx(0.20) and "forfeited" in label
    clean = forfeited.with_columns(draw_rate=pl.lit(0.0))
    assert fair_win_rate(facts, clean) == (pytest.approx(1 / 3), "fair share 1/3")


def test_the_dealer_figure_line_allows_for_drawn_hands():
    """The dealer figure's dotted line sat at 1/2 where drawn hands have no winner (two
    equal entrants under count = "all" read below it as dealer and as non-dealer)."""
    import polars as pl

    from whist_sim.reports.plots import two_seat_line

    drawn = pl.DataFrame({"strategy": ["a", "a", "b", "b"],
                          "role": ["dealer", "non-dealer"] * 2,
                          "hands": [100, 100, 100, 100], "wins": [46, 44, 45, 45]})
    fair, label = two_seat_line(drawn)
    assert fair == pytest.approx(0.45) and "draw" in label
    assert two_seat_line(drawn.with_columns(wins=pl.Series([52, 48, 50, 50]))) == (
        0.5, "fair share 1/2")


def test_the_contest_plot_draws_no_empty_trump_panel_when_there_are_no_trumps(
        tmp_path, monkeypatch):
    """Under trumps = "none" every prize is non-trump, and the figure drew an empty
    "trump prize" panel beside the other."""
    import polars as pl

    from whist_sim.reports import plots

    drawn = []
    save = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, path: (drawn.append(fig), save(fig, path))[1])
    contest = pl.DataFrame({"strategy": ["s"] * 3, "trump_prize": [False] * 3,
                            "rank_order": [0, 6, 12], "contest_rate": [0.5, 0.25, 1.0]})
    plots.plot_contest_by_rank(contest, tmp_path / "contest.png")
    assert [ax.get_title() for ax in drawn[0].axes] == ["non-trump prize"]
    both = contest.vstack(contest.with_columns(trump_prize=pl.lit(True)))
    plots.plot_contest_by_rank(both, tmp_path / "both.png")
    assert [ax.get_title() for ax in drawn[1].axes] == ["non-trump prize", "trump prize"]


@pytest.mark.parametrize(("variant", "drawn"), [
    ('count = "stage2"', False), ('count = "weighted"', False),
    ('count = "all"\nrace_to = 13', False), ('count = "all"', True)])
def test_german_standings_show_a_draw_rate_only_where_a_hand_can_be_drawn(tmp_path, variant,
                                                                          drawn):
    """The quickstart (``count = "stage2"``, 13 tricks that cannot split evenly) read a draw
    rate of ``0.000 [0.000, 0.004]`` in every row, as if a hand could be drawn: the column
    Minnesota Whist's standings already leave out for that reason (a probe)."""
    from tests.tournament_helpers import make_run_without_ray
    from whist_sim.reports.build import build_report

    body = ('[tournament]\ngame = "german_whist"\ndeals = 3\nseed = 5\n'
            f'[variant]\n{variant}\n'
            '[[strategies]]\nuse = "random"\n[[strategies]]\nuse = "heuristic"\n')
    text = build_report(make_run_without_ray(tmp_path, body)).markdown.read_text()
    header = next(line for line in text.splitlines() if line.startswith("| strategy")
                  and "win rate" in line and "mean net" in line)
    assert ("draw rate" in header) is drawn
    assert ("German Whist has no draw rate under this variant" in text) is not drawn
    assert ("a draw counts only in the draw rate" in text) is drawn  # no column, no word of it
    assert ("(wins, draws, net)" in text) is drawn


def test_the_entrants_table_names_a_bots_command():
    """A bot showed in the Entrants table as `process` alone, the command run.json records
    left out (a probe): which program played is what a reader of the report asks first."""
    from whist_sim.reports.run_section import strategy_rows

    meta = {"strategies": {
        "nodebot": {"use": "process", "params": {}, "version": "1",
                    "source": {"command": ["/usr/bin/node", "bots/my bot.js", "--fast"]}},
        "heuristic": {"use": "heuristic", "params": {}, "version": "3",
                      "source": {"module": "strategies.german_heuristic"}}}}
    rows = {row[0]: row for row in strategy_rows(meta)}
    assert rows["nodebot"][1] == "process: /usr/bin/node 'bots/my bot.js' --fast"
    assert rows["heuristic"][1] == "heuristic"
