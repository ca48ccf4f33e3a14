"""Serial links to the RFID card shoe, the RFID chip tray and the dealer alert light.

Each device is a sans-IO decoder, a link thread and a protocol layer; imports engine types only.
"""
