"""The game model: rules, scoring, scorecards, the game, matches, sessions, the seats friends take,
moves and dice, as values.
No words, no files, no screens: it imports only the standard library and itself."""
