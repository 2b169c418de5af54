"""Output files: every problem with a path is found before any computing starts.

Used by the report writers and the command line. Standard library only.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["check_output_path"]


def check_output_path(path, force=False, what="output"):
    """Raise, before any computing, when a file cannot be written at ``path``.

    Parameters
    ----------
    path : str or Path
    force : bool, default False
        An existing file may be replaced.
    what : str, default "output"
        What the file is, for the message ("output", "Markdown output").

    Raises
    ------
    IsADirectoryError
        ``path`` is a folder (with or without ``force``).
    FileExistsError
        ``path`` exists and ``force`` is False.
    FileNotFoundError
        The folder it would be written in does not exist.
    NotADirectoryError
        The "folder" it would be written in is a file.
    PermissionError
        The folder is not writable (tried by creating and removing a hidden file, so
        read-only file systems and access lists count, and nothing is left behind).

    Examples
    --------
    >>> import tempfile
    >>> from bayes_prc._core.paths import check_output_path
    >>> folder = tempfile.mkdtemp()
    >>> check_output_path(folder + "/report.html")
    >>> check_output_path(folder)
    Traceback (most recent call last):
    ...
    IsADirectoryError: cannot write the output ...: it is a directory; name a file in it
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(
            f"cannot write the {what} {path}: it is a directory; name a file in it"
        )
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; pass force=True (--force) to overwrite it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        raise FileNotFoundError(
            f"cannot write the {what} {path}: the directory {str(folder)!r} does not exist"
        )
    if not folder.is_dir():
        raise NotADirectoryError(
            f"cannot write the {what} {path}: {str(folder)!r} is a file, not a directory"
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise PermissionError(
            f"cannot write the {what} {path}: the directory {str(folder)!r} is not writable ({reason})"
        ) from None
    os.close(fd)
    os.unlink(probe)
