"""``python -m connect6 ...``: the same as the ``connect6`` command."""
import sys

from connect6.cli import main

if __name__ == "__main__":
    sys.exit(main())
