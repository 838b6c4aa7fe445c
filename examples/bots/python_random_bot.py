"""A protocol bot that plays whist_sim's ``random`` strategy: uniform over the legal actions.

Run by the engine as ``python examples/bots/python_random_bot.py`` (docs/protocol.md).
Through ``run_bot`` it draws from the same generator as the in-process ``random`` when
the engine sends the seat's exact generator (``exact_rng``), so it plays the same cards.
"""

import sys

from whist_sim.protocol.client import registry_factory, run_bot

if __name__ == "__main__":
    sys.exit(run_bot(registry_factory("strategies.random_play:RandomStrategy"),
                     name="python_random", version="1"))
