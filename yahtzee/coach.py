"""The strategy engine as the screens use it: loaded on first need, never at start-up."""
import random


class Coach:
    """Advice, costs and computer players for one session's rules; tables load lazily."""

    def __init__(self, cache_dir, progress=None, seed=None, notify=None):
        self.cache_dir = cache_dir
        self.progress = progress
        # Told in one line when a damaged table is set aside and built again.
        self.notify = notify
        self.seed = seed
        self._loader = None
        self._players = {}
        self.unsupported = ""

    def loader(self):
        """The table loader (imports numpy the first time a table is wanted)."""
        if self._loader is None:
            from .strategy import table_loader
            self._loader = table_loader(self.cache_dir, self.progress, self.notify)
        return self._loader

    def table(self, rules):
        """The strategy table for these rules, or None (the reason in `unsupported`). It is
        exact for every rule set and roll option; with a dice bank it plans approximately
        (table.exact is False and table.note says so)."""
        from .strategy import UnsupportedRules
        try:
            return self.loader()(rules)
        except UnsupportedRules as error:
            self.unsupported = str(error)
            return None

    def note(self, rules):
        """One sentence for the player when the advice for these rules is approximate, else ''."""
        table = self.table(rules)
        return table.note if table is not None else ""

    def options(self, game):
        """Every keep and legal box for the current dice, best first (None if not solvable)."""
        from .strategy import advise
        table = self.table(game.rules)
        return advise(table, game) if table is not None else None

    def cost_of_reroll(self, game):
        """Expected points the marked reroll gives away against perfect play."""
        from .strategy import cost_of_reroll
        options = self.options(game)
        return cost_of_reroll(options, game.turn.dice, game.turn.marked) if options else 0.0

    def cost_of_post(self, game, box):
        """Expected points posting in `box` gives away against perfect play."""
        from .strategy import cost_of_post
        options = self.options(game)
        return cost_of_post(options, box) if options else 0.0

    def player(self, mood, rules):
        """The computer player of a mood (one per mood and rules)."""
        from .strategy import computer_player
        key = (mood, rules)
        if key not in self._players:
            rng = random.Random(f"{self.seed}/{mood}") if self.seed is not None else None
            self._players[key] = computer_player(mood, rules, self.loader(), rng)
        return self._players[key]
