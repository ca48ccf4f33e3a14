"""The central service: the floor's view of every table, fed by the tables' uplinks."""
