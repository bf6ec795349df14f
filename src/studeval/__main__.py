"""``python -m studeval``: the same as the ``studeval`` command."""

import sys

from studeval.cli import main

if __name__ == "__main__":
    sys.exit(main())
