"""Compile and cache every kernel once (``tichusim warmup``), so later starts load them.

A cold compile costs seconds per kernel, paid by the first command that needs it. Each call
below reaches one family of jitted entry points with the argument types the library uses
(a kernel compiled for other types would compile again). The engines take the table, the
strategies and ``check`` as run-time values, so one small call covers every variant of a
family. ``tests/test_warmup.py`` checks that nothing is left to compile afterwards.
"""

from __future__ import annotations

import time

__all__ = ["warmup"]


def warmup() -> float:
    """Compile (or load) every kernel; return the seconds it took."""
    t0 = time.perf_counter()
    from . import legal_plays
    from .cards import seigneur as seigneur_rules
    from .analysis.duplicate import duplicate
    from .analysis.gtodds import gt_odds
    from .analysis.handclass import features
    from .games import GAMES, game, game_type

    legal_plays("Ma 2j 3s 4p 5t Ph Dr Dog 7j 7s 7p 7t")  # kernels.moves, combos
    seigneur_rules.legal_plays("5j 5j 6s 6s 7p Ph Dr Dr")  # kernels.seigneur.moves, combos
    seigneur_rules.classify("5j 5j 5s")
    for name in GAMES:  # every game's batch kernels (rounds, games) and its logged round
        table = game(name, 6 if game_type(name).takes_players else None,
                     {"game_rounds": 2} if game_type(name).chained_rounds else None)
        table.records(4, strategies="heuristic", check=True)
        table.records(2, games=True, strategies="lowest", target=100)
        table.transcript(0, 1)
    duplicate("lowest", "random", 2)  # kernels.moves.has_bomb_each
    gt_odds("Dr Ph A A K 9 5 3", deals=2)  # kernels.tichu.batch.play_rounds_fixed
    features([0x4000400040004000])  # kernels.tichu.handfeatures (strength scores)
    return time.perf_counter() - t0
