"""``python -m exactpoker`` runs the command line."""

import sys

from exactpoker.cli import main

sys.exit(main())
