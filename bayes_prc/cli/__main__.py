"""``python -m bayes_prc.cli``: the ``bayes-prc`` command."""

import sys

from . import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
