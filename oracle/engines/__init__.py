"""Adapters for real engines under test, run in process with ``--engine py:oracle.engines.<module>:engine``,
or built from a source tree the user supplies (``oracle.engines.shobu``: a Go driver run as ``cmd:``).

Each adapter imports its engine's package only inside its own module (an optional extra), so tcg-oracle
itself never needs it; the project never contains an engine's source.
"""
