"""The appliance at a table: its processes (engine, cameras, dashboard, uplink) as wiring,
the supervisor, the configuration, the journal, the camera link, clips and the live view."""
