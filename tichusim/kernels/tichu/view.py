"""What a strategy may see (RULES.md §6), as two NumPy record types.

``PUBLIC`` holds public information only (one record per table); ``PRIVATE`` one seat's own
hand, the cards it gave and received, and its random stream. The engine keeps each seat's
hand *only* in that seat's ``PRIVATE`` record and hands a strategy exactly two records: the
table's ``PUBLIC`` and its own ``PRIVATE``. No argument of a decision function reaches
another seat's hidden cards, so a strategy cannot read them even by mistake.

Wu Wang (RULES.md §4) opens two windows, both part of its rules: ``PUBLIC.exposed`` holds the
Minister's hand, face up for everybody once the passing is over, and the King, who plays both
hands, finds the other one in ``PRIVATE.ally_hand`` (the Minister's cards in the King's
record from the deal on; the King's cards in the Minister's record, which the King's strategy
reads when it decides for the Minister).

Seats are positions at the table (``variants.py``); zeroed records describe the 4-player game.
"""

import numpy as np

from .rules import RULES
from .variants import MAX_SEATS

PUBLIC = np.dtype(
    [
        ("n_players", np.int64),
        ("variant", np.int64),  # variants.NANJING (0), TIENTSIN or WUWANG
        ("wish_free", np.int64),  # bitmask of seats the wish does not bind (§4: the Minister)
        ("first_drawer", np.int64),
        ("counts", np.int64, (MAX_SEATS,)),  # cards in hand per seat
        ("grand_tichu", np.int64, (MAX_SEATS,)),  # 1 = called
        ("tichu", np.int64, (MAX_SEATS,)),
        ("has_played", np.int64, (MAX_SEATS,)),  # 1 once the seat played a card
        ("played", np.uint64),  # every card played so far
        ("played_by", np.uint64, (MAX_SEATS,)),
        ("out_order", np.int64, (MAX_SEATS,)),  # seats in the order they went out, -1 after
        ("n_out", np.int64),
        ("wish", np.int64),  # open wished rank, 0 = none
        ("top_code", np.int64),  # combination code of the trick's top, 0 = leading
        ("top_mask", np.uint64),
        ("top_seat", np.int64),
        ("trick_cards", np.uint64),  # every card in the trick in play
        ("leader", np.int64),  # who led the trick in play
        ("passed", np.int64),  # bitmask of seats that passed since the last play
        ("points_taken", np.int64, (MAX_SEATS,)),  # card points in each seat's tricks
        # bitmask of ranks each seat provably holds no card of: bit 1 the Mah Jong, known to
        # everybody once its holder leads (§2.8), bit r a wished rank the seat did not play
        # when the wish bound whoever held it (§2.11)
        ("lacks", np.int64, (MAX_SEATS,)),
        ("tricks", np.int64),
        ("bombs", np.int64),
        ("exposed", np.uint64),  # Wu Wang: the Minister's hand, face up after passing (§4)
        ("rules", RULES),  # the table's rules Options (rules.py): public, RULES.md §6
    ],
    align=True,
)

PRIVATE = np.dtype(
    [
        ("seat", np.int64),
        ("hand", np.uint64),
        ("given", np.uint64, (MAX_SEATS,)),  # card given to each seat when passing
        ("received", np.uint64, (MAX_SEATS,)),  # card received from each seat
        ("ally_hand", np.uint64),  # Wu Wang: the other hand the same strategy plays (§4)
        ("rng", np.uint64),  # this seat's decision stream
    ],
    align=True,
)
