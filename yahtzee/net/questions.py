"""The seating protocol's old home: it lives in yahtzee.net.seating, and this name stays only
until the table's console imports it from there."""
from .seating import Seating

__all__ = ["Seating"]
