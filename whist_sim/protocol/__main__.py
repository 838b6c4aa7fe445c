"""``python -m whist_sim.protocol SPEC``: serve any registered strategy as a protocol bot."""

from whist_sim.protocol.client import main

raise SystemExit(main())
