"""Hypothesis strategies for boards and scripts, per game (``oracle.generators``)."""
