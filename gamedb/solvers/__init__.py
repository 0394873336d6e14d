"""Solving strategies (issue 10 gathers the engines here); :mod:`.tiers` is the tier solver."""
