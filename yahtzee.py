"""Start Computer Yahtzee: `python yahtzee.py --help` lists the options."""
import sys

from yahtzee.cli import main

if __name__ == "__main__":
    sys.exit(main())
