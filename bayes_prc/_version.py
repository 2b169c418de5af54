"""The package version (foundation layer: importable by every module)."""

__version__ = "0.1.0"
