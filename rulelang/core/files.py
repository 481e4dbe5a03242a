"""Files a run writes into a folder others may share: opened so that a link planted there, even
while the run goes on, is refused rather than written through (a review of `simulate --report`:
a `report.md` linked to another file during a run had the report written into that file)."""
from __future__ import annotations

import os
import stat


def open_for_writing(path, binary: bool = False):
    """`path` opened for writing from its start, never through a symbolic link nor into anything but
    a regular file (a FIFO, a device); an OSError says why not."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        os.ftruncate(fd, 0)
        return os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
