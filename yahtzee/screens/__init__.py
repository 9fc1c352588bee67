"""The PC-SIG screens: each returns the next moment as a value; one flow runs them and alone
saves. They import the model, the speech, the saves, the strategy (the table builder and its
progress, to wait for a table), the coach, the presentation and, of the consoles, the stops and
the tumbling dice."""
