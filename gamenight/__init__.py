"""Game night beyond one table: the phone page (`roundhouse web`), the tables'
publishers and the league across tables on MQTT (`roundhouse publish`, `roundhouse
league`). Separate services beside the table service: they read its view socket and its
journal, never write either, and the table service itself keeps no network socket.
docs/game-night.md tells the host of the night how to set them up.
"""
