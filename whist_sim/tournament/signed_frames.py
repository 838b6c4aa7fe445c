"""Frames between a supervisor and its child, signed so that only the two of them count.

The supervisor and its child (``sandbox``, ``sandbox_child``) pass pickles over two
pipes. A bot the child starts runs as the same user, and through
``/proc/<pid>/fd/<n>`` such a process can open either pipe and write into it: a hostile
bot author's probe wrote a pickle there whose unpickling ran its code in the engine.
Each frame now starts with an HMAC-SHA256 of the rest under a key the supervisor draws
for each child and hands it as the first frame, before any task (so before any bot
exists); a frame without the right signature is never unpickled. The key lives in the
two processes' memory: a process that can read that memory (root; the same user
where ``/proc/<pid>/mem`` is open to it) can still forge frames, which is why
docs/protocol.md says to run bots one does not trust under a user of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from whist_sim.games.base import WhistSimError

KEY_BYTES = 32
_MAC_BYTES = hashlib.sha256().digest_size


class ForgedFrame(WhistSimError, RuntimeError):
    """A frame on a supervisor's pipe that the other end did not sign: the run stops with
    this one line (it is under attack), its committed tasks kept."""


def new_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def signed(key: bytes, payload: bytes) -> bytes:
    """``payload`` with its signature in front."""
    return hmac.new(key, payload, hashlib.sha256).digest() + payload


def verified(key: bytes, frame: bytes, where: str) -> bytes:
    """The payload of a frame ``signed`` with ``key``; ``ForgedFrame`` (naming ``where``
    it was read) for any other."""
    mac, payload = frame[:_MAC_BYTES], frame[_MAC_BYTES:]
    if len(mac) != _MAC_BYTES or not hmac.compare_digest(
            mac, hmac.new(key, payload, hashlib.sha256).digest()):
        raise ForgedFrame(
            f"{where}: a message not signed by the other end ({len(frame):,} bytes) was"
            " written into the pipe, by another process of this user (a bot reaching it"
            " through /proc?); it was not read. Run bots you do not trust under a user of"
            " their own (docs/protocol.md)")
    return payload
