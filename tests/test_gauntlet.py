"""Gauntlets: only the line-ups with a candidate, and the round robin's rows for them."""

from __future__ import annotations

import re

import polars as pl
import pytest

from tests.tournament_helpers import run_rows, write_config
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

GERMAN = """
[tournament]
game = "german_whist"
deals = 6
seed = 3
deals_per_task = 4
{extra}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"

[[strategies]]
use = "heuristic"
label = "bold"
params = {{ contest_margin = -0.5 }}
"""

SOLO = """
[tournament]
game = "solo_whist"
deals = 3
seed = 9
deals_per_task = 2
{extra}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
label = "r2"

[[strategies]]
use = "heuristic"
label = "h2"

[[strategies]]
use = "heuristic"
label = "bold"
params = {{ aggression = 1 }}
"""


def _play(tmp_path, name: str, body: str):
    config = load_config(write_config(tmp_path, body, f"{name}.toml"))
    summary = run_tournament(config, tmp_path / name, workers=0, progress=False)
    return config, run_rows(summary.path)


def _with_candidate(rows: dict[str, pl.DataFrame], pairings: list[int]):
    return {t: df.filter(pl.col("pairing").is_in(pairings)) for t, df in rows.items()}


@pytest.mark.parametrize("template", [GERMAN, SOLO], ids=["german 2 seats", "solo 4 seats"])
def test_gauntlet_rows_equal_the_round_robin_rows_of_its_line_ups(tmp_path, template):
    full_config, full = _play(tmp_path, "robin", template.format(extra=""))
    gauntlet = 'format = "gauntlet"\ncandidates = ["bold"]'
    config, rows = _play(tmp_path, "gauntlet", template.format(extra=gauntlet))
    lineups = full_config.lineups()
    with_bold = [i for i, lineup in enumerate(lineups) if "bold" in lineup]
    assert config.played_pairings() == with_bold
    assert 0 < len(with_bold) < len(lineups)  # baseline line-ups were not replayed
    assert sorted(rows["deals"]["pairing"].unique().to_list()) == with_bold
    expected = _with_candidate(full, with_bold)
    for table, frame in rows.items():
        assert frame.equals(expected[table]), table


def test_every_gauntlet_line_up_seats_a_candidate(tmp_path):
    _, rows = _play(tmp_path, "g", SOLO.format(extra='format = "gauntlet"\ncandidates = ["bold"]'))
    per_hand = rows["seats"].group_by("deal_key").agg(pl.col("strategy").eq("bold").any())
    assert per_hand["strategy"].all()


@pytest.mark.parametrize(
    ("extra", "fragments"),
    [
        ('format = "gauntlet"', ["tournament.candidates", "random, heuristic, bold"]),
        ('format = "gauntlet"\ncandidates = []', ["tournament.candidates"]),
        ('format = "gauntlet"\ncandidates = ["pimc"]', ["'pimc' is not an entrant",
                                                          "random, heuristic, bold"]),
        ('candidates = ["bold"]', ["only to format = \"gauntlet\"", "round_robin, gauntlet"]),
        ('format = "gauntlet"\ncandidates = ["random", "heuristic", "bold"]',
         ["at least one baseline"]),
        ('format = "knockout"', ["tournament.format", "round_robin", "gauntlet"]),
    ],
)
def test_bad_gauntlet_is_one_line_before_any_work(tmp_path, extra, fragments):
    path = write_config(tmp_path, GERMAN.format(extra=extra))
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert str(path) in message and "\n" not in message
    for fragment in fragments:
        assert fragment in message


def test_a_candidate_written_with_tomls_false_is_pointed_at_its_label(tmp_path):
    """A label made from parameters spells them as Python does, so a candidate written as
    TOML spells them matched nothing and got no hint (a probe)."""
    body = GERMAN.format(extra='format = "gauntlet"\ncandidates = ["pimc(incumbent=false)"]'
                         ).replace('use = "heuristic"\n', 'use = "pimc"\nparams = { incumbent'
                                   ' = false, worlds = 2 }\n', 1)
    with pytest.raises(ConfigError) as error:
        load_config(write_config(tmp_path, body))
    message = str(error.value)
    assert ("'pimc(incumbent=false)' is not an entrant (did you mean"
            " 'pimc(incumbent=False, worlds=2)'?)") in message, message
    assert 'a label = "..." of your own' in message


def test_a_two_entrant_gauntlet_tests_the_candidate_against_the_baseline(tmp_path):
    """With the baseline listed first the verdict read "heuristic against bold", testing
    whether the baseline was stronger than the candidate (a reproducibility probe)."""
    import json

    body = GERMAN.format(extra='format = "gauntlet"\ncandidates = ["bold"]').replace(
        '[[strategies]]\nuse = "random"\n\n', "", 1)
    config = load_config(write_config(tmp_path, body, "two.toml"))
    assert config.labels() == ["heuristic", "bold"]
    assert config.duel_order() == ["bold", "heuristic"]
    summary = run_tournament(config, tmp_path / "two", workers=0, progress=False)
    assert summary.verdict_text().startswith("bold")  # bold is A, tested against heuristic
    assert json.loads((summary.path / "run.json").read_text())["entrants"] == [
        "bold", "heuristic"]


def test_a_gauntlet_report_says_it_is_one_and_counts_only_the_comparisons_made(tmp_path):
    """Its report never said gauntlet, ranked the baselines as if they had met, and spoke
    of "3 comparisons" where the two baselines never played (a reproducibility probe)."""
    from whist_sim.reports.build import build_report

    config = load_config(write_config(
        tmp_path, GERMAN.format(extra='format = "gauntlet"\ncandidates = ["bold"]'), "g.toml"))
    summary = run_tournament(config, tmp_path / "g", workers=0, progress=False)
    build_report(summary.path, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "gauntlet (candidates: bold; only line-ups with a candidate played)" in text
    assert "A gauntlet: only the line-ups with a candidate (bold) were played" in text
    assert "heuristic and random never met" in text
    # the ranking's note on opponents agrees (it said "each meets the other, never itself")
    assert ("(in a gauntlet a candidate meets every other entrant and a baseline only the"
            " candidates; none meets itself)") in text
    assert "each meets the other" not in text
    assert "holds for the 2 comparisons together" in text
    assert "3 comparisons" not in text


def test_a_gauntlet_whose_baselines_share_its_tables_does_not_say_they_never_met(tmp_path):
    """At a Knock-out table of three with three entrants the one line-up seats them all:
    the baselines did meet, and the report said their places relative to one another
    meant nothing (seen in the report's page)."""
    from whist_sim.reports.build import build_report

    body = ('[tournament]\ngame = "knockout_whist"\nplayers = 3\ndeals = 4\nseed = 3\n'
            'format = "gauntlet"\ncandidates = ["bold"]\n\n[[strategies]]\nuse = "random"\n\n'
            '[[strategies]]\nuse = "heuristic"\n\n[[strategies]]\nuse = "heuristic"\n'
            'label = "bold"\nparams = { survival_weight = 1.0 }\n')
    config = load_config(write_config(tmp_path, body, "ko.toml"))
    summary = run_tournament(config, tmp_path / "ko", workers=0, progress=False)
    build_report(summary.path, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "gauntlet (candidates: bold" in text
    assert "A gauntlet: only the line-ups with a candidate" not in text


def test_a_gauntlet_of_many_entrants_compares_each_candidate_with_every_entrant(tmp_path):
    """With five entrants or more the verdict compared neighbours in the ranking, which
    in a gauntlet are mostly two baselines that never met: a probe's gauntlet of seven
    entrants read "heuristic_twin and ismcts(iterations=20) never met" four times and
    tested the candidate pimc against one baseline of five, never answering the
    gauntlet's question (is the candidate stronger than each baseline?)."""
    from whist_sim.reports.build import build_report

    body = GERMAN.format(extra='format = "gauntlet"\ncandidates = ["bold"]') + (
        '\n[[strategies]]\nuse = "heuristic"\nlabel = "timid"\n'
        'params = { contest_margin = 1.0 }\n'
        '\n[[strategies]]\nuse = "heuristic"\nlabel = "twin"\n')
    config = load_config(write_config(tmp_path, body, "g5.toml"))
    assert len(config.labels()) == 5
    summary = run_tournament(config, tmp_path / "g5", workers=0, progress=False)
    build_report(summary.path, tmp_path / "report")
    verdict = (tmp_path / "report" / "report.md").read_text().split("## Run")[0]
    assert "never met" not in verdict
    for baseline in ("random", "heuristic", "timid", "twin"):
        assert any("bold" in line and baseline in line and ("decided" in line
                   or "not separated" in line) for line in verdict.splitlines()), baseline
    assert "holds for the 4 comparisons together" in verdict


@pytest.mark.parametrize(("body", "baselines"), [
    (GERMAN.format(extra='format = "gauntlet"\ncandidates = ["bold"]'), "random, heuristic"),
    (SOLO.format(extra='format = "gauntlet"\ncandidates = ["bold"]'),
     "random, heuristic, r2, h2"),
])
def test_a_gauntlets_ratings_say_the_baselines_order_is_the_models(tmp_path, body, baselines):
    """The ratings ordered a gauntlet's baselines, which never met, through the model's
    transitivity alone (heuristic 87, ismcts 27, timid 15 in a probe's run), while the
    verdict said their places say nothing; and a reader compared two entrants by
    whether their intervals overlapped. Both ratings sections now say what they show."""
    from whist_sim.reports.build import build_report

    config = load_config(write_config(tmp_path, body))
    summary = run_tournament(config, tmp_path / "g", workers=0, progress=False)
    build_report(summary.path, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    ratings = text[text.index("\n## Ratings"):text.index("\n## ", text.index("\n## Ratings") + 1)]
    assert "two intervals that overlap do not say two entrants are level" in ratings
    named = re.search(r"the baselines \(([^)]*)\) played the candidates \(bold\) only",
                      ratings)
    assert named is not None, ratings
    assert sorted(named.group(1).split(", ")) == sorted(baselines.split(", "))
