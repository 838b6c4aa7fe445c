"""Shared fixtures: one embedded Ray for the whole test session, on a loopback address."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def ray_cluster():
    """An embedded Ray (127.0.0.2, 2 CPUs) shared by the tournament tests."""
    from whist_sim.tournament.cluster import ray_session

    os.chdir(ROOT)  # workers import tests.plugins from the repository root
    with ray_session(None, 2) as slots:
        yield slots
