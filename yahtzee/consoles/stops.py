"""What a console raises besides keys: the two ways the terminal ends a game early, and a seat
that changed hands while its question was asked."""


class InputClosed(Exception):
    """No more input will come: end of file, or the terminal is gone."""


class StopRequested(BaseException):
    """SIGTERM, SIGHUP or (in key mode) SIGINT arrived: stop at the next safe moment (saved)."""


class SeatChanged(Exception):
    """A seat changed hands while its question was asked (handed to a computer): the flow asks
    the same moment again."""
