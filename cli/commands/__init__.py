"""One module per command (or a few commands that share their options), loaded by cli/group.py when that
command runs: its click options and the body that calls the application layer."""
