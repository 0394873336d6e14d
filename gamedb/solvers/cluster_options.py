"""What a solve on a Dask cluster may be asked, checked before anything is read (the solve itself: :mod:`.tier_cluster`)."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import GamedbError, InputError, param, said_as
from ..games.base import Game
from ..safe_text import shown
from .protocol import Cluster
from .tiers import by_classes, rules_of


def check_cluster(cluster: Cluster, strategy: str) -> None:
    """Refuse options of a cluster solve that cannot work, before anything is read."""
    if cluster.workers is not None and cluster.scheduler is not None:
        raise InputError(f"{param('workers')} starts a local cluster and {param('scheduler')} uses another one: give one of them")
    for option, value in ((param("workers"), cluster.workers), (param("slice_size"), cluster.slice_size)):  # (the Python API: Cluster(workers="2"))
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"{option} must be a whole number, got {shown(repr(value), 40, quotes=False)}")
    if cluster.workers is not None and cluster.workers < 1:
        raise InputError(f"{param('workers')} must be 1 or more, got {cluster.workers}")
    if cluster.slice_size is not None and cluster.slice_size < 1:
        raise InputError(f"{param('slice_size')} must be 1 or more positions, got {cluster.slice_size}")
    if cluster.work_dir is not None:
        _check_work_dir(cluster.work_dir)
    if strategy not in ("auto", "tiers"):
        raise InputError(f"a solve on a cluster runs the tier solver: {param('strategy', strategy)} cannot go with "
                         f"{said_as('a cluster', '--workers or --scheduler')}")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise GamedbError("a solve on a cluster needs Dask: pip install 'gamedb[cluster]'") from None
    if cluster.scheduler is not None:
        from .dask_client import probe_scheduler

        probe_scheduler(cluster.scheduler)  # (before the database is opened: nothing is left of a solve that cannot start)


def _check_work_dir(work_dir: str) -> None:
    """Refuse a ``--work-dir`` that is a file, or under one, before anything starts (the error named the solve's folder
    inside it, once the cluster had started)."""
    here = Path(work_dir).absolute()
    while not os.path.lexists(here) and here != here.parent:  # (the folders missing are made)
        here = here.parent
    if not here.is_dir():
        where = "" if here == Path(work_dir).absolute() else f" ({shown(here, 200)} is one)"
        raise GamedbError(f"{param('work_dir')} {shown(work_dir, 200)} must be a folder, made if missing, not a file or under one{where}")


def cluster_group(game: Game, wanted: bool | None) -> int:
    """The symmetry group a solve of ``game`` on a cluster stores through; a game the tier solver cannot take, or a
    ``--symmetry`` (``wanted``) it cannot keep, refused (before anything is read or said)."""
    from . import choice

    why = choice.STRATEGIES["tiers"].refusal(game)
    if why is not None:  # (not said as for --strategy tiers, which the user did not type)
        raise InputError(f"a solve on a cluster ({said_as('cluster=', '--workers, --scheduler')}) runs the tier solver, which cannot "
                         f"solve this game ({why}): solve it without {said_as('cluster=', '--workers and --scheduler')}")
    return cluster_symmetry(game, choice.symmetry(game, "tiers", wanted), wanted)


def cluster_symmetry(game: Game, group: int, wanted: bool | None) -> int:
    """The symmetry group a solve on a cluster stores through: ``group`` (:func:`.choice.symmetry`'s) where the workers can
    enumerate a class at a time (:func:`.tiers.by_classes`), else every position (``--symmetry``, ``wanted``, refused)."""
    if group == 1 or by_classes(game, rules_of(game)):
        return group
    if wanted:
        raise InputError(f"{param('symmetry', True)}: a solve of this {game.family} game on a cluster stores every position (a class at a time "
                         f"needs rules that count the classes, and a game of 10^6 positions or more, stored without texts); use {param('symmetry', False)}")
    return 1
