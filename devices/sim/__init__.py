"""Device-side simulators of the shoe, the tray and the light, speaking the real protocols."""
