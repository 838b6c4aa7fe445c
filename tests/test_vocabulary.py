"""One vocabulary (docs/glossary.md): the progress bar counts what the closing line counts
(matches, with the hands they held), the counts agree with the tables, and the README,
configs and docs use the glossary's words and point to the rules in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import write_config
from whist_sim.cli import app
from whist_sim.store import RunFolder
from whist_sim.tournament import runner
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
WORDS = ("deal", "hand", "game", "match", "session", "pair", "line-up", "seating")

SOLO = """
[tournament]
game = "solo_whist"
deals = 2
seed = 5

[variant]
session_hands = 3

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""


def _last_bar(err: str) -> tuple[int, int]:
    counts = re.findall(r"(\d+)/(\d+) matches \[", err)
    assert counts, err
    done, total = counts[-1]
    return int(done), int(total)


def test_the_progress_bar_counts_the_matches_the_summary_counts(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "_is_terminal", lambda stream: True)  # the bar, as on a tty
    summary = run_tournament(load_config(write_config(tmp_path, SOLO)), tmp_path / "run",
                             workers=0, progress=True)
    done, total = _last_bar(capsys.readouterr().err)
    folder = RunFolder.open(tmp_path / "run")
    matches = folder.scan("matches").select("pairing", "deal", "rotation").unique().collect()
    hands = folder.scan("deals").collect()
    # 1 line-up (random heuristic random heuristic) x 2 deals x 2 distinct seatings
    # = 4 matches (sessions) of 3 hands each
    assert done == total == summary.matches == matches.height == 4
    assert summary.hands == hands.height == 4 * 3
    assert summary.deals == summary.hands  # the old name still answers


def test_the_closing_line_names_matches_and_hands(tmp_path):
    config = write_config(tmp_path, SOLO)
    result = CliRunner().invoke(app, ["run", str(config), "--workers", "0", "--no-progress",
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert re.match(r"complete: 4 matches \(12 hands\) in \d+\.\d s in process -> ", first), first


def test_the_glossary_defines_every_word_the_console_uses():
    text = GLOSSARY.read_text()
    for word in WORDS:
        assert re.search(rf"^\*\*{re.escape(word)}\*\*", text, re.MULTILINE) or \
            f"**{word}**" in text, word


def test_the_glossary_explains_every_column_of_the_console_standings():
    """The console's standings printed ``ms/decision`` and ``decision s`` (and ``mean
    net``) under every run and duel, which nothing a newcomer reads explained: is 0.001
    a millisecond, and 0.1 seconds of what? (a newcomer's probe)."""
    from whist_sim.tournament import live

    source = Path(live.__file__).read_text()
    header = source[source.index('header = ["entrant"'):source.index('"decision s"]') + 13]
    columns = [c for c in re.findall(r'"([^"]+)"', header) if c != "entrant"]
    console = GLOSSARY.read_text().split("## The console", 1)[1]
    assert {"win rate [95% CI]", "ms/decision", "decision s"} <= set(columns), columns
    for column in columns:
        assert f"`{column}`" in console, column


REPORT_WORDS = ("session-seat", "balance", "throw-in", "declarer side", "grand hand",
                "null hand", "HCP", "dog's life", "revived", "placing", "fair share",
                "round win", "player-game", "score share")
"""Words the Solo, Minnesota and Knock-out reports print without defining each time."""


def test_the_glossary_defines_the_report_words_and_every_sense_of_unit():
    text = GLOSSARY.read_text()
    for word in REPORT_WORDS:
        assert f"**{word}**" in text, word
    unit = text[text.index("**unit**"):text.index("**deal key**")]
    assert "Storage" in unit and "Stake" in unit and "Statistics" in unit
    assert "never game" not in text  # the Minnesota and Knock-out sections count games


def test_the_glossary_says_report_tables_name_entrants_strategy():
    """The glossary defined a strategy as a player program and an entrant as its config
    entry under a label, while the report's `strategy` columns hold labels
    (heuristic_bold) and its Entrants table maps each label to a strategy (heuristic)."""
    text = GLOSSARY.read_text()
    entry = text[text.index("\n**strategy**"):text.index("\n**entrant**")]
    assert "`strategy` column" in entry and "**entrant** by its label" in entry


def _project_texts() -> list[Path]:
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "configs").glob("*.toml")),
             *sorted((ROOT / "whist_sim").rglob("*.py")),
             *sorted((ROOT / "strategies").rglob("*.py"))]
    return [p for p in paths if p.is_file()]


OUTSIDE = ("RULES.md", "../shared", "/work/shared", "shared specification")
"""How the rules used to be pointed to, outside the repository ("--out /shared/runs" is fine)."""


def test_nothing_points_outside_the_repository_for_the_rules():
    """The rules are docs/rules/; the shared specification is not part of a clone."""
    found = [f"{p.relative_to(ROOT)}:{n}"
             for p in _project_texts()
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if any(word in line for word in OUTSIDE)]
    assert not found, found


@pytest.mark.parametrize("config", sorted((ROOT / "configs").glob("*.toml")),
                         ids=lambda p: p.name)
def test_config_comments_use_the_glossary(config):
    comments = " ".join(line.split("#", 1)[1] for line in config.read_text().splitlines()
                        if "#" in line)
    for old in ("deal seeds", "duplicate deals", "per pairing", "games per", "sessions per",
                "points per deal", "forfeits the deal"):
        assert old not in comments, (config.name, old)
