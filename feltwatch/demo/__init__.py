"""The simulated table: its timeline, its rendered camera and the replay of its frames (the
only part of the appliance that imports ``models``)."""
