"""Strategies used only by the tests, imported by Ray workers as ``tests.plugins...``."""
