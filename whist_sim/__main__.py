"""``python -m whist_sim`` is the ``whist-sim`` command."""

from whist_sim.cli import app

app(prog_name="whist-sim")
