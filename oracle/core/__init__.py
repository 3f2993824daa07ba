"""Game-independent machinery of the reference engines: vocabulary, trace, script, board, triggers."""
