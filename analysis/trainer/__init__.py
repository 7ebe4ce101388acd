"""The puzzle trainer's logic without widgets (issue 25): Glicko-2 ratings (``glicko``), the
progress database (``progress``), choosing the next puzzle (``select``) and a session's
modes (``session``). The app (``tui/screens/trainer.py``) and the CLI only call these."""

MODES = ("rated", "streak", "theme", "mix")  # a session's modes; here for the CLI's choices
