"""`python -m yahtzee` starts the game."""
import sys

from .cli import main

sys.exit(main())
