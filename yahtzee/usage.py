"""A usage error said in one line on stderr: shared by the command line and its reports."""
import sys


def usage_error(message: object) -> int:
    """Say what was wrong on stderr; the exit code for a usage error (2), whatever stderr is."""
    try:
        sys.stderr.write(f"yahtzee.py: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # a full or closed stderr must not turn a usage error into a crash
    return 2
