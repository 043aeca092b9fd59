"""The Pi's address on the room's network, for the phone page's address when none is
configured (the QR codes of `roundhouse web` and of the wall)."""

from __future__ import annotations

import socket

PAGE_PORT = 8080  # `roundhouse web`'s default port


def lan_address() -> str:
    """The address the Pi's routes send from. A UDP socket's connect sends nothing;
    without any route the loopback address is all there is."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def page_url(port: int = PAGE_PORT) -> str:
    return f"http://{lan_address()}:{port}/"
