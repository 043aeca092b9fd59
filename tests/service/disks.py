"""Real disk faults for the service tests: a tiny tmpfs that fills up or turns read-only.

Mounting needs root (or CAP_SYS_ADMIN); without it the tests that need a disk fault
are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


class TinyDisk:
    """A tmpfs of `size` bytes mounted at `path`."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755",
                               "tmpfs", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs (needs root): {done.stderr.strip()}")
        self._filler = path / "filler"

    def fill(self) -> None:
        """Take every free byte: the next write that needs a block gets ENOSPC."""
        with open(self._filler, "ab", buffering=0) as out:
            for size in (1 << 16, 4096, 512, 1):
                with contextlib.suppress(OSError):
                    while out.write(b"\0" * size):
                        pass
        probe = self.path / "probe"
        try:
            probe.write_bytes(b"x" * 4096)
        except OSError as err:
            assert err.errno == errno.ENOSPC
        else:
            raise AssertionError("the disk still takes writes")
        finally:
            with contextlib.suppress(OSError):
                probe.unlink()

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)

    def remount(self, *options: str) -> None:
        subprocess.run(["mount", "-o", ",".join(("remount", *options)), str(self.path)],
                       check=True, capture_output=True)

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


@contextlib.contextmanager
def tiny_disk(path: Path, size: int = 512 * 1024) -> Iterator[TinyDisk]:
    disk = TinyDisk(path, size)
    try:
        yield disk
    finally:
        disk.unmount()


def is_root() -> bool:
    return os.geteuid() == 0
