"""The table over SSH: friends at their own terminals join the host's game (`--host`).

credentials.py keeps the host key and says who may join; server.py is the SSH server (asyncssh,
in a thread of its own); seat.py is one friend's terminal as the game sees it; hostconsole.py is the
console the flow talks to while it hosts, which shows every screen at every seat and reads the
keys of the seat whose turn it is. It imports the model, the speech, the saves (atomic files,
for the host key), the presentation and the consoles (the key console the
host plays at, its key reader and the stops).
"""
