"""benchmarks/env_steps.py's closing verdict: its ratio is shown to the digit that decides
it, so a ratio just under the goal never reads as the goal itself."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "env_steps.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_env_steps", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


env_steps = _load()


def test_a_ratio_just_under_the_goal_does_not_read_as_the_goal():
    line = env_steps.goal_line(0.49899)
    assert "0.499" in line and "misses" in line
    assert "0.50:" not in line


def test_a_ratio_at_or_above_the_goal_meets_it():
    assert env_steps.goal_line(0.5) == "lowest env/engine ratio 0.500: meets the goal of 0.5"
    assert "0.512: meets" in env_steps.goal_line(0.5123)
