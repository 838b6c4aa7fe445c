"""A strategy that rolls out with the library's search pieces gets its roll-out policy
built, and the heuristic's kernels compiled, when it is built: outside every decision.

A newcomer probe's plug-in (docs/writing-a-strategy.md, "A strategy that searches")
failed ``whist-sim check`` on a fresh install, its first Solo Whist bid over the 10 s
limit while numba compiled the heuristic it rolled out with, and passed the next time.

The same holds for the compiled solver (and German Whist's compiled roll-outs, which end
in a solve): a probe on a cold numba cache saw ``pimc`` forfeit a Solo Whist decision
over a 5 s limit while the solver compiled in it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLUGIN = textwrap.dedent('''
    from whist_sim.search import model_for
    from whist_sim.search.model import play_out


    class Rollout:
        games = frozenset({"solo_whist"})

        def choose(self, view, rng):
            model_for(view)
            return (view.legal & -view.legal).bit_length() - 1
''')

PROBE = textwrap.dedent('''
    import sys
    from whist_sim.strategy import build_strategy

    compiled = "strategies.solo_heuristic_compiled"
    build_strategy("random", None, "solo_whist")
    print("after random:", compiled in sys.modules, "whist_sim.search" in sys.modules)
    build_strategy("rollout_plugin:Rollout", None, "solo_whist")
    print("after the searching plug-in:", compiled in sys.modules)
''')


def test_building_a_searching_strategy_builds_its_rollout_policy_first(tmp_path: Path):
    (tmp_path / "rollout_plugin.py").write_text(PLUGIN)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    # a process that never searches loads neither the search package nor the kernels
    assert "after random: False False" in out
    assert "after the searching plug-in: True" in out


SOLVER_PROBE = textwrap.dedent('''
    import sys
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.strategy import build_strategy

    def signatures():
        fast = sys.modules.get("whist_sim.solver.fast")
        rollout = sys.modules.get("whist_sim.search.german_rollout")
        return (len(fast._value.signatures) if fast else 0,
                len(fast._at_least.signatures) if fast else 0,
                len(rollout._play_stage1.signatures) if rollout else 0)

    for spec, params in (("pimc", {"exact_cards": 0}), ("pimc", {"compiled": False}),
                         ("ismcts", {"exact_cards": 0})):
        build_strategy(spec, params, "solo_whist")
    print("never solving:", signatures())
    build_strategy("ismcts", {"iterations": 2}, "solo_whist")
    print("ismcts built:", signatures())
    game = make_game("german_whist", None, None)
    seated = [build_strategy("pimc", {"worlds": 2}, game),
              build_strategy("heuristic", None, game)]
    built = signatures()
    play_deal(game, seated, 3, 0, on_error="abort")
    print("pimc built:", built, "after a deal:", signatures())
''')


@pytest.fixture(scope="module")
def solver_probe() -> str:
    return subprocess.run([sys.executable, "-c", SOLVER_PROBE], check=True,
                          capture_output=True, text=True, timeout=300).stdout


def test_a_search_strategy_has_its_solver_ready_when_built(solver_probe):
    # a fresh process: whatever is compiled was compiled by building, before any choose;
    # one signature per kernel, the same for every game, so no decision compiles
    assert "ismcts built: (1, 1, 1)" in solver_probe
    assert "pimc built: (1, 1, 1) after a deal: (1, 1, 1)" in solver_probe


def test_a_search_strategy_that_never_solves_compiles_no_solver(solver_probe):
    # exact_cards = 0 or the pure Python solver: nothing to compile, nothing paid
    assert "never solving: (0, 0, 0)" in solver_probe
