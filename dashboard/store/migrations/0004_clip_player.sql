-- What the review page plays: the clip as H.264 (browsers do not play the Motion-JPEG evidence),
-- and the clip's start and the alert's proof in the camera's clock (seconds), so the player
-- seeks to the alert's moment and to each event of the hand's timeline.
ALTER TABLE clips ADD COLUMN play_path TEXT NOT NULL DEFAULT '';
ALTER TABLE clips ADD COLUMN start_s REAL NOT NULL DEFAULT 0;
ALTER TABLE clips ADD COLUMN alert_s REAL NOT NULL DEFAULT 0;
