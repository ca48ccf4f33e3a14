"""The exit statuses of the command line and of the appliance's processes (the README's table)."""

EXIT_OK = 0
EXIT_BAD_INPUT = 1
"""The input was read and found wrong (a hand that breaks a rule, a replay that differs)."""
EXIT_UNUSABLE = 2
"""Unusable input or usage: a file missing or unreadable, a bad argument, a part never ready."""
EXIT_ENGINE_FAILED = 70
"""The engine thread failed: the process exits so that the supervisor restarts it."""
EXIT_LINES_LOST = 74
"""Output the disk would not take was lost (the engine's files, a command's output file)."""
EXIT_CANNOT_WRITE = EXIT_LINES_LOST
