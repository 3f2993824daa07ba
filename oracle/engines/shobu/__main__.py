"""``python -m oracle.engines.shobu build --source DIR --out DIR``: see :mod:`oracle.engines.shobu.build`."""

import sys

from .build import main

sys.exit(main())
