"""Pure, deterministic hand engine: table event log v1 -> hand state -> alerts.

The engine never reads a clock or does I/O beyond what a caller hands it: time arrives inside
events, so a journal replays to identical output.
"""
