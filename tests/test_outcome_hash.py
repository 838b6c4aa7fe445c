"""The outcome hash: a fixed set of matches of the four games, random and heuristic seats,
hashed (every action log, outcome and match result) and checked against the hashes the
code gave before the engine and heuristics were made faster (commit c43568d).

An optimisation of the rules' hot paths, the views or the heuristics must not change a
single decision: any change here is a change of play, not of speed. A deliberate change
of a strategy's play (with its ``version`` bumped) recomputes these hashes, and says so
in its commit.
"""

from __future__ import annotations

import hashlib

import pytest

from whist_sim.games import make_game
from whist_sim.play import play_match
from whist_sim.strategy import build_strategy

CASES = [
    # (game, variant, players, matches)
    ("german_whist", {}, None, 150),
    ("german_whist", {"count": "weighted", "open_stock": 3, "match": "best_of_3"}, None, 50),
    ("german_whist", {"trumps": "none", "race_to": 7, "count": "all"}, None, 50),
    ("solo_whist", {}, None, 150),
    ("solo_whist", {"upcard": False, "overtricks": True, "session_hands": 4}, None, 40),
    ("solo_whist", {"payments": "classic", "prop_and_cop": False, "play_out": True}, None, 50),
    ("minnesota_whist", {}, None, 20),
    ("minnesota_whist", {"bid": "spoken", "scoring": "pagat", "target": 9}, None, 20),
    ("knockout_whist", {}, 4, 75),
    ("knockout_whist", {"dogs_life": "first_round", "tie_break": "nearest_left"}, 3, 50),
    ("knockout_whist", {"dogs_life": "first_knockout"}, 5, 40),
]

EXPECTED = {
    'german_whist//default/random': '6b0ca64c4e7d6738',
    'german_whist//default/heuristic': '7df16b5b6d472a62',
    'german_whist//count=weighted,open_stock=3,match=best_of_3/random': 'c2d1ca870c3b391e',
    'german_whist//count=weighted,open_stock=3,match=best_of_3/heuristic': '1217f78f52982a2f',
    'german_whist//trumps=none,race_to=7,count=all/random': '66a9b8a681aff170',
    'german_whist//trumps=none,race_to=7,count=all/heuristic': '078969cace81409f',
    'solo_whist//default/random': '09d21942b74ba39e',
    'solo_whist//default/heuristic': '0d914ac4f828ad2e',
    'solo_whist//upcard=False,overtricks=True,session_hands=4/random': 'b1573d5b55c08bff',
    'solo_whist//upcard=False,overtricks=True,session_hands=4/heuristic': '285928c2ddf5e2a9',
    'solo_whist//payments=classic,prop_and_cop=False,play_out=True/random': 'ddd467f937ead161',
    'solo_whist//payments=classic,prop_and_cop=False,play_out=True/heuristic': '7d13771089401d19',
    'minnesota_whist//default/random': 'b9667a3a8cd4c01c',
    'minnesota_whist//default/heuristic': 'cfdce9d2c542c993',
    'minnesota_whist//bid=spoken,scoring=pagat,target=9/random': '0f74caed1fec6a7a',
    'minnesota_whist//bid=spoken,scoring=pagat,target=9/heuristic': 'caed4ba7206175ee',
    'knockout_whist/4/default/random': '71b76d7de7db9b52',
    'knockout_whist/4/default/heuristic': '6d136346cf8c22e6',
    'knockout_whist/3/dogs_life=first_round,tie_break=nearest_left/random': '822d268c3800234e',
    'knockout_whist/3/dogs_life=first_round,tie_break=nearest_left/heuristic': '83dcf08df31efa8f',
    'knockout_whist/5/dogs_life=first_knockout/random': '08b3b7ad74211ec6',
    'knockout_whist/5/dogs_life=first_knockout/heuristic': '91797950c13ca41c',
}
"""sha256 (first 16 hex digits) of each case, from the code at commit c43568d."""


def outcome_hash(game_name: str, variant: dict, players: int | None, matches: int,
                 strategy: str) -> str:
    """Hash of every hand of ``matches`` seeded matches: seeds, dealers, deal records,
    action logs, tricks, scores, nets, results, forfeits and each match's result."""
    game = make_game(game_name, variant, players)
    seats = [build_strategy(strategy, {}, game.name) for _ in range(game.players)]
    digest = hashlib.sha256()
    for match in range(matches):
        played, result = play_match(game, seats, 7_000 + match)
        for deal in played:
            outcome = deal.outcome
            digest.update(repr((
                deal.seed, deal.dealer, sorted(deal.state.deal_record().items()),
                [tuple(entry) for entry in deal.state.log], outcome.tricks, outcome.score,
                outcome.net, outcome.result, outcome.forfeit_seat, outcome.error,
            )).encode())
        digest.update(repr(sorted(result.items())).encode())
    return digest.hexdigest()[:16]


def case_id(case: tuple, strategy: str) -> str:
    game, variant, players, _ = case
    shown = ",".join(f"{k}={v}" for k, v in variant.items()) or "default"
    return f"{game}/{players or ''}/{shown}/{strategy}"


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
@pytest.mark.parametrize("case", CASES, ids=lambda case: case_id(case, "")[:-1])
def test_outcome_hash_unchanged(case: tuple, strategy: str) -> None:
    key = case_id(case, strategy)
    assert outcome_hash(*case, strategy) == EXPECTED[key], (
        f"{key}: play changed (a decision, a rule or a log entry differs)"
    )


if __name__ == "__main__":  # print the table of hashes, to fill EXPECTED deliberately
    for case in CASES:
        for strategy in ("random", "heuristic"):
            print(f"    {case_id(case, strategy)!r}: {outcome_hash(*case, strategy)!r},")
