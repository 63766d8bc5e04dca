"""The team games' rules Options (RULES.md §2–§4), one record from ``Game.options`` to the kernels.

``RULES`` holds every Option of the team engine as one field, the only place where an Option
is declared: its name is the key of ``Game.options`` (``--option KEY=VALUE``, a run's
``[options]``) and of the field, and its default is the field's zero. The game packs its
options into one ``RULES`` record (``record``); the batch settings (``batch.RUN``), the work
record (``records.WORK``), the table's public record (``view.PUBLIC``: the table's Options are
public, RULES.md §6) and the labelling settings (``labels.LABELS``) each carry it whole as a
field ``rules``, copied whole, so only the rule that applies an Option reads its field:

* ``phoenix_led_half`` (§2.6, the French edition): a led Phoenix is worth ½, so the Mah Jong
  may be played on it; read by ``policies.led_phoenix`` and ``policies.value_led_phoenix`` (the
  engine's turn and the strategies' pricing) and by the learned player's features
  (``encoding.py``).
* ``rotating_king`` (§4, the Fata Morgana edition): in a Wu Wang game the King's role passes
  to the next player each round; read by ``batch._unit``, which chains a game's rounds.

Adding one is the recipe "Adding a rules Option" of ``docs/architecture.md``.
"""

import numpy as np

RULES = np.dtype(
    [
        ("phoenix_led_half", np.bool_),  # §2.6 Option: a led Phoenix is worth ½, not 1½
        ("rotating_king", np.bool_),  # §4 Option: the King's role passes on each round
    ],
    align=True,
)
OPTIONS: tuple[str, ...] = tuple(RULES.names or ())  # their names, in order

# what a transcript's header says of an Option that is on
SAID = {
    "phoenix_led_half": "a led Phoenix is worth ½ (RULES.md §2.6 Option)",
    "rotating_king": "the King's role passes to the next player each round (RULES.md §4 Option)",
}
# which tables have which Option: every team table, or Wu Wang's games alone (an Option that
# shapes whole games, not one round: ``show`` refuses it)
EVERY_TABLE = ("phoenix_led_half",)
WUWANG_GAMES = ("rotating_king",)


def record(options: dict) -> np.ndarray:
    """The ``RULES`` record (a one-element array) of a game's checked ``options``: every
    Option the game has, the others at their zero."""
    out = np.zeros(1, RULES)
    for name in OPTIONS:
        if name in options:
            out[name] = options[name]
    return out
