-- Rows from a table's files (or the central broker) that could not be stored, with why: kept
-- for review instead of blocking the rows after them.
CREATE TABLE quarantine (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    source TEXT NOT NULL,
    line TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX quarantine_by_table ON quarantine (table_name, id);
