"""The Knock-out Whist ``rounds`` table records every round's dealer and each player's dealt
cards (rounds 2-7 are in no other table; the ``nearest_left`` tie-break depends on the
dealer). Checked against what the engine dealt, captured as each round starts."""

from __future__ import annotations

import pytest

from strategies.random_play import RandomStrategy
from whist_sim.cards import cards_str
from whist_sim.games import make_game
from whist_sim.games.knockout_whist import KnockoutWhistDeal
from whist_sim.play import play_deal


def _play_watching_deals(monkeypatch, players: int, seed: int, dealer: int, **variant):
    """Play one game; return the engine's rounds rows and, per round, the dealer and the
    hands as ``_start_round`` set them."""
    seen: list[tuple[int, tuple[int, ...]]] = []
    start = KnockoutWhistDeal._start_round

    def watched(self, *args, **kwargs):
        start(self, *args, **kwargs)
        seen.append((self.dealer, tuple(self.round_start_hands)))

    monkeypatch.setattr(KnockoutWhistDeal, "_start_round", watched)
    game = make_game("knockout_whist", variant, players)
    state = game.new_deal(seed, dealer)
    outcome = play_deal(game, [RandomStrategy() for _ in range(players)], seed, dealer,
                        dealt=state)
    assert outcome is not None
    labels = tuple(f"s{seat}" for seat in range(players))
    return state.extra_rows(labels)["rounds"], seen, state


@pytest.mark.parametrize("players", [3, 5, 7])
@pytest.mark.parametrize("dogs_life", ["off", "first_round", "first_knockout"])
def test_each_round_records_its_dealer_and_every_players_dealt_cards(
    monkeypatch, players: int, dogs_life: str
):
    for seed in range(12):
        dealer = seed % players
        rows, seen, state = _play_watching_deals(monkeypatch, players, 7000 + seed, dealer,
                                                 dogs_life=dogs_life)
        rounds = max(row["round"] for row in rows)
        assert rounds == state.round
        for row in rows:
            round_dealer, hands = seen[row["round"] - 1]
            assert row["dealer"] == round_dealer, (seed, row)
            assert row["dealt_cards"] == cards_str(hands[row["seat"]]), (seed, row)
            assert len(row["dealt_cards"].split()) == row["cards_dealt"], (seed, row)
        assert rows[0]["dealer"] == dealer
        assert next(r["dealer"] for r in rows if r["round"] == rounds) == state.dealer


def test_round_one_dealt_cards_are_the_deals_hands(monkeypatch):
    rows, _, state = _play_watching_deals(monkeypatch, 4, 99, 2)
    hands = state.deal_record()["hands"]
    for row in (r for r in rows if r["round"] == 1):
        assert row["dealt_cards"] == hands[row["seat"]]
