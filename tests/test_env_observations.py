"""Observation tensors are a function of the seat's view, and of nothing else.

- The tensor (with the action mask) changes exactly when the view changes: over random
  play, equal views give equal tensors and different views different tensors, for every
  seat (so no view fact is lost, and nothing outside the view gets in).
- The encoder's kept trick history gives what a fresh encoder gives, at every step.
- The seat-view audit (tests/view_audit.py) finds no hidden card in the decoded tensor:
  card planes are masks that must not tell hidden cards apart, cards listed with a
  value must not be hidden; and it does find one planted there.
- ``decode`` gives back the view's own facts (hand, cards played, whose turn).
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

from tests import (
    test_knockout_seat_views,
    test_minnesota_seat_views,
    test_seat_views,
    test_solo_seat_views,
)
from tests.view_audit import FieldAudit
from whist_sim.checking import CHECK_VARIANTS
from whist_sim.env import encoder_for, layout_for
from whist_sim.env.layout import Layout
from whist_sim.games import make_game
from whist_sim.games.base import DealState

HIDDEN_FROM = {
    "german_whist": test_seat_views.hidden_from,
    "solo_whist": test_solo_seat_views.hidden_from,
    "minnesota_whist": test_minnesota_seat_views.hidden_from,
    "knockout_whist": test_knockout_seat_views.hidden_from,
}

CASES = [(game, variant, None) for game, variants in CHECK_VARIANTS.items()
         for variant in variants]
CASES += [("knockout_whist", {}, n) for n in (2, 3)]
CASES += [("german_whist", {"open_stock": 26}, None)]
BIG_TABLES = [("knockout_whist", {}, 7), ("knockout_whist", {"dogs_life": "first_knockout"}, 6)]
"""Slow (seven seats' views at every step): run with the slow tests."""
ALL_CASES = CASES + [pytest.param(case, marks=pytest.mark.slow) for case in BIG_TABLES]


def case_id(case: tuple[str, dict[str, Any], int | None]) -> str:
    game, variant, players = case
    shown = ",".join(f"{k}={v}" for k, v in variant.items()) or "default"
    return f"{game}-{shown}" + (f"-{players}p" if players else "")


def random_deals(game_name: str, variant: dict[str, Any], players: int | None, deals: int):
    """(state, seat) at every step of ``deals`` random deals, every seat each step."""
    game = make_game(game_name, variant, players)
    rng = random.Random(f"{game_name}{variant}{players}")
    for deal in range(deals):
        state = game.new_deal(rng.getrandbits(62), deal % game.players)
        while True:
            yield game, state
            if state.to_act < 0:
                break
            legal = state.legal
            state.apply(rng.choice([a for a in range(legal.bit_length()) if legal >> a & 1]))


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_the_tensor_changes_exactly_when_the_view_changes(case):
    game_name, variant, players = case
    encoders: dict[int, Any] = {}
    by_view: dict[tuple[int, Any], bytes] = {}
    by_tensor: dict[tuple[int, bytes], Any] = {}
    steps = 0
    for game, state in random_deals(game_name, variant, players, deals=3):
        for seat in range(game.players):
            encoder = encoders.setdefault(seat, encoder_for(game))
            view = state.view(seat)
            obs, mask = encoder.encode(view)
            fresh_obs, fresh_mask = encoder_for(game).encode(view)
            assert np.array_equal(obs, fresh_obs) and np.array_equal(mask, fresh_mask), (
                "the kept history differs from a fresh encoder's")
            tensor = obs.tobytes() + mask.tobytes()
            known = by_view.setdefault((seat, view), tensor)
            assert known == tensor, "one view, two tensors"
            other = by_tensor.setdefault((seat, tensor), view)
            assert other == view, f"two views, one tensor: {_differing(other, view)}"
            steps += 1
    assert steps > 100 and len(by_view) > 50


def _differing(a: Any, b: Any) -> list[str]:
    return [f for f in a._fields if getattr(a, f) != getattr(b, f)]


FIELD = re.compile(r"^view\['(\w+)'\]")
"""The decoded field a path of the walk is under: ``view['played'][1]`` -> played."""


def tensor_kind(layout: Layout):
    """The audit's kind of each decoded field, from the segment's kind."""
    kinds = {s.name: s.kind for s in layout.segments}

    def kind_of(path: str) -> str:
        found = FIELD.match(path)
        name = found[1] if found else ""
        if name == "action_mask":
            return "mask"
        kind = kinds.get(name)
        if kind in ("cards", "seat_cards"):
            return "mask"
        if kind == "card_values":
            # ``(card, value)`` pairs: the card (index 0) must not be hidden
            return "card" if path.endswith("[0]") else "counter"
        return "counter"

    return kind_of


def decoded(layout: Layout, obs: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
    fields = layout.decode(obs)._asdict()
    fields["action_mask"] = sum(1 << int(a) for a in np.flatnonzero(mask))
    return fields


def audit_findings(game, state: DealState, audit: FieldAudit, encoders: dict[int, Any]):
    found = []
    for seat in range(game.players):
        encoder = encoders.setdefault(seat, encoder_for(game))
        obs, mask = encoder.encode(state.view(seat))
        found += audit.scan(
            decoded(encoder.layout, obs, mask), hidden=HIDDEN_FROM[game.name](state, seat),
            forbidden={}, hands=state.hands, seat=seat, seed=state.seed,
        )
    return found


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_the_decoded_tensor_shows_no_hidden_card(case):
    game_name, variant, players = case
    layout = layout_for(make_game(game_name, variant, players))
    audit = FieldAudit(tensor_kind(layout))
    encoders: dict[int, Any] = {}
    for game, state in random_deals(game_name, variant, players, deals=2):
        findings = audit_findings(game, state, audit, encoders)
        assert not findings, findings[:3]
    assert audit.views_checked > 50 and audit.ints_checked > 1000


@pytest.mark.parametrize("game_name", sorted(CHECK_VARIANTS))
def test_the_audit_finds_a_hidden_card_planted_in_the_tensor(game_name):
    game = make_game(game_name)
    state = game.new_deal(3, 0)
    seat = state.to_act
    encoder = encoder_for(game)
    obs, mask = encoder.encode(state.view(seat))
    hidden = HIDDEN_FROM[game_name](state, seat)
    card = (hidden & -hidden).bit_length() - 1
    planted = obs.copy()
    planted[encoder.layout.offsets["trick"] + card] = 1.0
    audit = FieldAudit(tensor_kind(encoder.layout))
    findings = audit.scan(decoded(encoder.layout, planted, mask), hidden=hidden, forbidden={},
                          hands=state.hands, seat=seat, seed=state.seed)
    assert any("trick" in f for f in findings), findings
    numbered = obs.copy()
    numbered[encoder.layout.offsets["trick_number"] + card] = 0.5
    findings = audit.scan(decoded(encoder.layout, numbered, mask), hidden=hidden, forbidden={},
                          hands=state.hands, seat=seat, seed=state.seed)
    assert any("trick_number" in f for f in findings), findings


@pytest.mark.parametrize("case", CASES[:1] + CASES[7:8] + CASES[14:15] + CASES[18:19],
                         ids=case_id)
def test_decode_gives_back_the_views_facts(case):
    game_name, variant, players = case
    encoders: dict[int, Any] = {}
    for game, state in random_deals(game_name, variant, players, deals=2):
        for seat in range(game.players):
            encoder = encoders.setdefault(seat, encoder_for(game))
            view = state.view(seat)
            obs, mask = encoder.encode(view)
            fields = encoder.layout.decode(obs)
            assert fields.hand == view.hand
            assert fields.seat == seat
            assert fields.to_act == (int(view.legal != 0),)
            played = 0
            for plane in fields.played:
                played |= plane
            assert played == view.played
            trick = sum(1 << c for c in view.trick)
            assert fields.trick == trick
            assert sum(1 << int(a) for a in np.flatnonzero(mask)) == view.legal


def test_the_state_gives_the_same_tensors_openspiel_style():
    for game_name in sorted(CHECK_VARIANTS):
        game = make_game(game_name)
        state = game.new_deal(11, 1)
        for _ in range(12):
            seat = state.to_act
            if seat < 0:
                assert not state.legal_actions_mask().any()
                break
            obs, mask = encoder_for(game).encode(state.view(seat))
            assert np.array_equal(state.information_state_tensor(seat), obs)
            assert np.array_equal(state.legal_actions_mask(), mask)
            assert state.legal_actions_mask().dtype == np.int8
            legal = np.flatnonzero(state.legal_actions_mask())
            state.apply(int(legal[0]))


@pytest.mark.parametrize("score", [(0, -200), (13, 7), (-1, 250)])
def test_a_squashed_count_decodes_to_the_whole_count(score):
    """Squashed as v / (|v| + scale) in float32, a score of -200 at a target of 1 decoded
    as -199.999 (an RL researcher's probe): a count decodes as a whole number."""
    from whist_sim.env import encoder_for, layout_for

    game = make_game("minnesota_whist", {"scoring": "pagat", "target": 1})
    view = game.new_deal(1, 0).view(1)._replace(score=score)
    observation, _ = encoder_for(game).encode(view)
    decoded = layout_for(game).decode(observation).score
    assert all(isinstance(value, int) for value in decoded)
    assert sorted(decoded) == sorted(score)
