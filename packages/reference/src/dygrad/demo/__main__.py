"""``python -m dygrad.demo``: see :mod:`dygrad.demo`."""

import sys

from . import main

sys.exit(main())
