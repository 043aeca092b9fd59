"""A view socket that serves fixed views: for the phone page's pictures in the docs and
for tests that need a page showing one exact moment of a game (a real table follows in
the tests that play one)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path


async def serve_views(socket: Path, lines: Sequence[str]) -> asyncio.AbstractServer:
    """Serve `lines` (views, one JSON object each) to every client that connects, as the
    table service does, then keep the connection open as an idle table would."""

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for line in lines:
            writer.write(line.rstrip("\n").encode() + b"\n")
        await writer.drain()
        await reader.read()  # until the client goes
        writer.close()

    return await asyncio.start_unix_server(client, path=str(socket))
