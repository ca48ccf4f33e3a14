-- The central store's database and its owner (run as the postgres superuser:
--   sudo -u postgres psql -v password="'...'" -f deploy/postgres/setup.sql
-- deploy/install.sh --central does it). The central service creates its tables itself
-- (numbered migrations in dashboard/store/migrations, applied once each at start).
CREATE ROLE feltwatch LOGIN PASSWORD :password;
CREATE DATABASE feltwatch OWNER feltwatch ENCODING 'UTF8';
\connect feltwatch
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT ALL ON SCHEMA public TO feltwatch;
