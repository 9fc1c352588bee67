"""Playing from a table: the advisor and the players of the table's objectives. It imports the
model and strategy.exact."""
