"""What every part of the table shares and nothing else: the error root, the words of the
game (train keys, how a tile is written, the table's size), the messages the table says
and how they are said, the public view the screens draw, and the base of the small
frozen values the other parts define (`value`).

It imports nothing of the rest of the project, so the rules engine, the hardware, the
service and the screens may all import it; a screen process loads it and pygame, never
the rules engine.
"""

__version__ = "0.1.0"
