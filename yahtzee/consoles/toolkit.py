"""prompt_toolkit as key mode uses it, in one place: it loads with this module, which only
keyterminal.toolkit() imports, when a console in key mode starts (never on plain mode's start)."""
from prompt_toolkit.input import create_input
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import create_output
from prompt_toolkit.utils import get_cwidth

from .lineedit import LineEditor


class Toolkit:
    """The functions and types, each as its own module types it."""

    create_input = staticmethod(create_input)
    create_output = staticmethod(create_output)
    get_cwidth = staticmethod(get_cwidth)
    Keys = Keys
    LineEditor = LineEditor


TOOLKIT = Toolkit()
