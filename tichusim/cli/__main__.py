"""``python -m tichusim.cli``: the ``tichusim`` command."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
