"""Real faults for the service tests and benchmarks: a tiny tmpfs that fills up or turns
read-only, a service short of file descriptors.

Mounting needs root (or CAP_SYS_ADMIN); without it the tests that need a disk fault
are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import resource
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class TinyDisk:
    """A tmpfs of `size` bytes mounted at `path`."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755",
                                   "tmpfs", str(path)], capture_output=True, text=True)
        except FileNotFoundError:
            pytest.skip("cannot mount a tmpfs: no mount command (util-linux)")
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


def serve_with_few_files(folder: Path, spare: int, ready: Any) -> None:
    """A child process: the simulated table's service allowed only `spare` file
    descriptors beyond those it holds once started, seat 0 joining and leaving every
    0.1 s so that every screen has news."""
    from firmware_py.config import example_config, load_config
    from firmware_py.daemon import Service
    from firmware_py.notify import Notifier
    from hardware.events import Button, ButtonPressed, ButtonReleased

    config = dataclasses.replace(load_config(example_config("sim")),
                                 database=folder / "t.db", socket=folder / "view.sock")
    service = Service(config, attach_hardware=False, notifier=Notifier({}))
    service.start()
    used = len(os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (used + spare, used + spare))
    ready.set()
    while not service.finished.is_set():
        service.events.put(ButtonPressed(0, Button.DRAW))
        service.events.put(ButtonReleased(0, Button.DRAW))
        time.sleep(0.1)
