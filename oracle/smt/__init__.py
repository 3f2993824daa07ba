"""Z3 as an independent second reading of the rules (issue 12): block-legality models per game and their
brute-force twin (``solver``, ``brute``, over ``boards``), agreement with the reference engine
(``verdicts``, ``agree``), block-count golden files (``counts``), the ``legal_blocks`` capability
(``legal_blocks``), bounded proofs (``prove``, ``battle``), block requirements (``requirements``) and the
procedures' ordering constraints (``order``, plain Python; ``order_explain``, z3). Never imports a game
module; importing this package imports no z3."""
