"""A strategy that rolls out with the library's search pieces gets its roll-out policy
built, and the heuristic's kernels compiled, when it is built: outside every decision.

A newcomer probe's plug-in (docs/writing-a-strategy.md, "A strategy that searches")
failed ``whist-sim check`` on a fresh install, its first Solo Whist bid over the 10 s
limit while numba compiled the heuristic it rolled out with, and passed the next time.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

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
