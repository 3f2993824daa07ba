"""Running engines on cases: the engine protocol, adapters, comparison, runner, baselines, shards."""
