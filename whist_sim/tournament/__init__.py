"""Tournaments: configs, the schedule of line-ups and deals, tasks, and the Ray runner."""
