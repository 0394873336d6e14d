"""Alembic migrations of the gamedb schema (installed as ``gamedb.migrations``)."""
