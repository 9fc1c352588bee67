"""The two ways the terminal ends a game early; the console raises them, the command line ends."""


class InputClosed(Exception):
    """No more input will come: end of file, or the terminal is gone."""


class StopRequested(BaseException):
    """SIGTERM, SIGHUP or (in key mode) SIGINT arrived: stop at the next safe moment (saved)."""
