"""shobu.io's Duel Masters engine (github.com/sindreslungaard/duel-masters, Go, MIT) under the suite.

The project holds only the adapter: a Go driver (``driver/*.go``) that speaks the JSON-lines protocol and
is compiled into the engine's own Go module, and :mod:`.build`, the command that builds it from a source
tree the user supplies::

    python -m oracle.engines.shobu build --source DIR --out DIR

It prints the ``--engine "cmd:..."`` spec to run (docs/shobu.md).
"""
