"""pygame screens drawn purely from the public view the table service publishes."""


class DisplayError(Exception):
    """Root of every error raised by the `display` package."""
