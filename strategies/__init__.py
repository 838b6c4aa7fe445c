"""whist_sim's built-in strategies.

They register through the ``whist_sim.strategies`` entry-point group in
pyproject.toml, exactly as a third-party plug-in would, and import only the
strategy protocol, the cards helpers and the seat views, never a game's state.
"""
