-- Feltwatch dashboard store, version 1. Portable SQL (SQLite and PostgreSQL): TEXT, INTEGER,
-- REAL (wall-clock seconds since the epoch), JSON kept as TEXT.

CREATE TABLE poker_tables (
    name TEXT PRIMARY KEY,
    config TEXT NOT NULL DEFAULT '{}',
    light TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);

CREATE TABLE hands (
    table_name TEXT NOT NULL,
    hand TEXT NOT NULL,
    button INTEGER,
    started_at REAL NOT NULL,
    ended_at REAL,
    complete INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    alert_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_name, hand)
);
CREATE INDEX hands_by_time ON hands (started_at);

CREATE TABLE hand_seats (
    table_name TEXT NOT NULL,
    hand TEXT NOT NULL,
    seat INTEGER NOT NULL,
    stack INTEGER NOT NULL,
    PRIMARY KEY (table_name, hand, seat)
);

CREATE TABLE events (
    table_name TEXT NOT NULL,
    seq INTEGER NOT NULL,
    hand TEXT,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_name, seq)
);
CREATE INDEX events_by_hand ON events (table_name, hand, seq);

CREATE TABLE alerts (
    id TEXT PRIMARY KEY,
    table_name TEXT NOT NULL,
    hand TEXT NOT NULL,
    seq INTEGER NOT NULL,
    rule TEXT NOT NULL,
    family TEXT NOT NULL,
    severity TEXT NOT NULL,
    seat INTEGER,
    message TEXT NOT NULL,
    body TEXT NOT NULL,
    raised_at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    acknowledged_by TEXT,
    acknowledged_at REAL,
    resolved_by TEXT,
    resolved_at REAL,
    note TEXT
);
CREATE INDEX alerts_by_hand ON alerts (table_name, hand);
CREATE INDEX alerts_by_status ON alerts (status, raised_at);

CREATE TABLE clips (
    alert_id TEXT NOT NULL,
    camera TEXT NOT NULL,
    clip_path TEXT NOT NULL,
    keyframe_path TEXT NOT NULL,
    PRIMARY KEY (alert_id, camera)
);

CREATE TABLE health (
    table_name TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    message TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    at REAL NOT NULL,
    PRIMARY KEY (table_name, source)
);

-- What changed, in order: the live push to browsers reads it from an id on.
CREATE TABLE changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    table_name TEXT NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL
);

CREATE TABLE users (
    name TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL,
    created_at REAL NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_name TEXT NOT NULL,
    csrf TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);

CREATE TABLE audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    user_name TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    client TEXT NOT NULL DEFAULT ''
);

-- How far each appliance file has been read (the feed resumes there after a restart).
CREATE TABLE feed_offsets (
    path TEXT PRIMARY KEY,
    byte_offset INTEGER NOT NULL
);
