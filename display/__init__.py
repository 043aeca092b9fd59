"""pygame screens drawn purely from the public view the table service publishes."""

import os

from roundhouse.errors import RoundhouseError

# pygame prints a banner on import unless told not to; the `roundhouse` command's
# output is for players and installers.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class DisplayError(RoundhouseError):
    """Root of every error raised by the `display` package."""
