"""gamedb's version, the one in pyproject.toml; stored in every game row it writes."""

__version__ = "0.1.0"
