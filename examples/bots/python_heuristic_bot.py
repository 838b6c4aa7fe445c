"""A protocol bot that plays whist_sim's built-in ``heuristic``, one rule-based player per game.

Run by the engine as ``python examples/bots/python_heuristic_bot.py``; the config's
``params`` reach the game's heuristic exactly as they would in process.
"""

import sys

from whist_sim.protocol.client import registry_factory, run_bot

if __name__ == "__main__":
    sys.exit(run_bot(registry_factory("strategies.heuristic:Heuristic"),
                     name="python_heuristic", version="1"))
