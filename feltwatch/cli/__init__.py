"""The command line: one module per command group, ``common`` for what they share."""
