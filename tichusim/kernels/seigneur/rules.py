"""Grand Seigneur's rules Options (RULES.md §5), one record from ``Game.options`` to the kernels.

``GS_RULES`` holds every Option that reaches the Grand Seigneur kernels as a switch, the only
place where such an Option is declared: its name is the key of ``Game.options`` and of the
field, and its default is the field's zero. The game packs its options into one record
(``record``); the batch settings (``batch.GS_RUN``), the work record (``records.GS_WORK``)
and the table's public record (``view.GS_PUBLIC``: the table's Options are public, RULES.md
§6) each carry it whole as a field ``rules``, copied whole, so only the rule that applies an
Option reads its field:

* ``distinct_triples`` (§5, the Russian edition): the real cards of a triple, alone or in a
  full house, are of different suits; read where the combinations are read and generated
  (``combos.py``, ``moves.py``), by the engine's turn and checker (``engine.py``) and by the
  strategies (``policies.py``), which hand it to those.
* ``russian_seating`` (§5, the Russian edition): the second sits at the Grand Seigneur's right
  and the turn runs by rank; read by ``engine.seat_of_rank``'s caller, which seats a round.

The deck Options (``decks``, ``russian_deck``) are not switches: the game folds them into the
deck the kernels deal (``cards.DECK_*``), with the number of players.

Adding one is the recipe "Adding a rules Option" of ``docs/architecture.md``.
"""

import numpy as np

GS_RULES = np.dtype(
    [
        ("distinct_triples", np.bool_),  # §5 Option: a triple's real cards differ in suit
        ("russian_seating", np.bool_),  # §5 Option: seats and turn order by rank
    ],
    align=True,
)
OPTIONS: tuple[str, ...] = tuple(GS_RULES.names or ())  # their names, in order


def record(options: dict) -> np.ndarray:
    """The ``GS_RULES`` record (a one-element array) of a game's checked ``options`` (the
    Options not among them off)."""
    out = np.zeros(1, GS_RULES)
    for name in OPTIONS:
        if name in options:
            out[name] = options[name]
    return out
