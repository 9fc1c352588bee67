"""The PC-SIG screens: each returns the next moment as a value; one flow runs them and saves."""
from .context import Console, Context, Moment, Passing, Screen, Services, Settings
from .flow import Keeper, finish, keep_for_later, run
from .lobby import clean_name, computer_seat
from .prompts import QuitGame

__all__ = ["Console", "Context", "Moment", "Passing", "Screen", "Services", "Settings", "Keeper", "finish",
           "keep_for_later", "run", "clean_name", "computer_seat", "QuitGame"]
