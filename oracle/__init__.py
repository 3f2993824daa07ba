"""tcg-oracle: a rules test-oracle and conformance suite for trading-card-game battle rules."""

__version__ = "0.1.0"
