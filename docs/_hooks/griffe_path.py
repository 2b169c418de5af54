"""mkdocs hook: put ``docs/_griffe`` on ``sys.path`` for mkdocstrings' docstring extension.

mkdocs.yml names the extension by module (``rst_to_markdown:RestToMarkdown``), a plain
string that mkdocstrings-python's validated options accept whatever is installed (with
pydantic present they reject the placeholder object of a ``!relative $config_dir/...``
tag), and mkdocs resolves hooks against the config file, so the build does not depend
on the working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

_GRIFFE = str(Path(__file__).resolve().parents[1] / "_griffe")


def on_config(config):
    """Before the build (mkdocs restores ``sys.path`` after importing the hooks)."""
    if _GRIFFE not in sys.path:
        sys.path.insert(0, _GRIFFE)
    return config
