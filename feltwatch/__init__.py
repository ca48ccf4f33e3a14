"""Feltwatch composition root: configuration, processes, journal and the ``feltwatch`` CLI."""
