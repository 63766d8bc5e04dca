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
    from . import legal_plays, simulate, simulate_games
    from .cards import seigneur as seigneur_rules
    from .analysis.duplicate import duplicate
    from .analysis.gtodds import gt_odds
    from .analysis.handclass import features
    from .games.seigneur import simulate_seigneur
    from .games.seigneur import transcript as seigneur_transcript
    from .games.transcript import play_with_log

    legal_plays("Ma 2j 3s 4p 5t Ph Dr Dog 7j 7s 7p 7t")  # kernels.moves, combos
    seigneur_rules.legal_plays("5j 5j 6s 6s 7p Ph Dr Dr")  # kernels.gs_moves, gs_combos
    seigneur_rules.classify("5j 5j 5s")
    for variant in ("nanjing", "tientsin", "wuwang"):  # kernels.batch, engine, policies
        simulate(4, strategies="heuristic", variant=variant, check=True)
        simulate_games(1, strategies="lowest", variant=variant,
                       **({"target": 100} if variant != "wuwang" else {}))  # fmt: skip
        play_with_log(0, 0, variant=variant)
    simulate_seigneur(2, players=6, strategies="heuristic", rounds_per_game=2, check=True)
    seigneur_transcript(0, 0, 1, players=6)  # kernels.gs_batch.play_logged
    duplicate("lowest", "random", 2)  # moves.has_bomb_each
    gt_odds("Dr Ph A A K 9 5 3", deals=2)  # kernels.batch.play_rounds_fixed
    features([0x4000400040004000])  # handfeatures.hand_features (strength scores)
    return time.perf_counter() - t0
