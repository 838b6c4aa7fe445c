"""A seat's randomness across the process boundary: the same stream in process and behind it.

``play_deal`` gives each seat of each deal its own ``random.Random``
(``strategy_rng(seat_seed(deal seed, seat))``). A ``ProcessStrategy`` never draws from
it; at the seat's first decision of a deal, while the generator is still untouched,
the ``deal`` message describes it:

- ``seed``: 63 bits as a decimal string (JavaScript numbers hold only 53), a BLAKE2b
  hash of the generator's state. The same deal and seat always give the same seed, so
  a bot in any language can be reproducible.
- ``python_rng`` (only when the engine runs the bot with ``exact_rng``): the
  generator's exact Mersenne Twister state, so a Python client draws the very numbers
  the strategy would draw in process and makes the same choices (the same rows). The
  state leads at most back to the seat's seed, which ``play.seat_seed`` derives from
  the deal's seed one way (``play.SEAT_SEEDING`` 2), so it tells nothing of the deal;
  see docs/protocol.md, "Randomness".

Why the state and not the seed: the play loop does not tell a strategy its seed, and
the state needs no change to the loop; it is the stream itself, so nothing about how
the seed was derived can make the two sides differ.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Mapping
from typing import Any

from whist_sim.protocol.errors import ProtocolError

MT_WORDS = 624
"""Words of Mersenne Twister state (``random.Random.getstate()[1]`` holds them and the
position)."""
STATE_VERSION = 3
"""``random.Random``'s state format (unchanged since Python 3.2)."""


def seat_randomness(rng: Any, exact: bool) -> tuple[str, dict[str, Any] | None]:
    """The ``seed`` and, when ``exact``, the ``python_rng`` of a ``deal`` message for the
    seat whose generator is ``rng`` (not drawn from)."""
    if not isinstance(rng, random.Random):  # a stand-in generator: its draws stay private
        return str(rng.getrandbits(63)), None
    version, internal, gauss_next = rng.getstate()
    words = struct.pack(f">{MT_WORDS}I", *internal[:MT_WORDS])
    digest = hashlib.blake2b(words + struct.pack(">I", internal[MT_WORDS]), digest_size=8)
    seed = str(int.from_bytes(digest.digest(), "big") >> 1)
    if not exact:
        return seed, None
    return seed, {
        "version": version,
        "state": words.hex(),
        "position": internal[MT_WORDS],
        "gauss_next": gauss_next,
    }


def rng_from_deal(message: Mapping[str, Any]) -> random.Random:
    """The generator a bot's Python strategy draws from during the deal ``message`` starts:
    the engine's very stream when ``python_rng`` is given, else one seeded by ``seed``."""
    state = message.get("python_rng")
    if state is None:
        seed = message.get("seed")
        if not isinstance(seed, str) or not seed.isdigit():
            raise ProtocolError(f"deal has seed {seed!r}", "a decimal string such as \"1234\"")
        return random.Random(int(seed))
    try:
        words = struct.unpack(f">{MT_WORDS}I", bytes.fromhex(state["state"]))
        internal = (*words, int(state["position"]))
        rng = random.Random()
        rng.setstate((int(state["version"]), internal, state.get("gauss_next")))
    except (KeyError, TypeError, ValueError, struct.error) as exc:
        raise ProtocolError(
            f"deal has a python_rng that is not a generator state ({exc})",
            f"version, state ({MT_WORDS} words as hex), position, gauss_next",
        ) from None
    return rng
