"""Solving strategies (issue 10 gathers the solvers here); :mod:`.tiers` is the tier solver."""
