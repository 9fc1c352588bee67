"""The table over SSH: friends at their own terminals join the host's game (`--host`), or every
player logs in to a server of many tables (`--serve`).

credentials.py keeps the host key and says who may join; server.py is the SSH server (asyncssh, in
a thread of its own, its notices to the host held to a few by throttle.py), whose door.py admits
and logs in each connection within limits.py and whose seatsession.py serves one friend's terminal
(the rejoin code first where the seat needs it); seat.py is one friend's terminal as the game sees
it; hostconsole.py is the console the flow talks to while it hosts, which shows every screen at
every seat and reads the keys of the seat whose turn it is, over terminals.py (every terminal and
the wait for a key across them), claims.py (a friend's proof held against the game's seats, the
model's Seats value that the server reads too), lines.py (each terminal's own words),
friendkeys.py and straykeys.py (the keys of a friend's own terminal, and of terminals not asked)
and hostpages.py (the host's page of who is at the table, and the wait for a friend away);
seating.py is what the table asks the game about its seats. hall.py is the server of many tables:
its pages (hallpage.py) at each login, who may log in (access.py), what an admin does there
(admin.py), and each table a hosted table whose host is its creator's terminal, open or saved in
the server's folder (servedtables.py), its console one whose host may hand it on (handover.py).
It imports the model, the speech, the saves (atomic files, for the host key; a server's saved
tables), the presentation, the consoles (the key console the host plays at, its key reader and
the stops), the screens (the console contract a table's game runs at) and the strategy (its
memo of tables, counted as a server stops).
"""
import warnings

# asyncssh names cryptography's DSA key types as it loads, which newer cryptography warns of on
# stderr: a host's or a server's terminal would show it, though no key of the game's is DSA.
warnings.filterwarnings("ignore", message="DSA is deprecated", category=UserWarning)
