"""Adapters for real engines under test, run in process with ``--engine py:oracle.engines.<module>:engine``.

Each adapter imports its engine's package only inside its own module (an optional extra), so tcg-oracle
itself never needs it.
"""
