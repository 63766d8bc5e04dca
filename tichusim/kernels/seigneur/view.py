"""What a Grand Seigneur strategy may see (RULES.md §6), as two NumPy record types.

``GS_PUBLIC`` holds public information only (one record per table), ``GS_PRIVATE`` one seat's
own hand, the cards it gave and received in the exchange, and its random stream. The engine
keeps each hand only in its seat's private record and hands a strategy the table's public
record and its own private record, nothing else (the design of ``view.py`` for four seats).

Seats are chairs at the table, 0..n-1 in turn order; ``player`` is who sits there (players
change chairs with their rank, §5). Card sets are multisets ``(a, b)`` (``cards``).
"""

import numpy as np

from .rules import GS_RULES

MAX_PLAYERS = 12

GS_PUBLIC = np.dtype(
    [
        ("n_players", np.int64),
        ("deck", np.int64),  # cards.DECK_ONE / DECK_TWO / DECK_RUSSIAN
        ("rules", GS_RULES),  # the table's rules Options (rules.py): public, RULES.md §6
        ("dealer", np.int64),  # seat; the last-ranked player, who also gets the Dog's lead
        ("counts", np.int64, (MAX_PLAYERS,)),  # cards in hand per seat
        ("holders", np.int64),  # bitmask of seats still holding cards
        ("rank_before", np.int64, (MAX_PLAYERS,)),  # each seat's rank from the last round, 0 none
        ("exchanged", np.int64, (MAX_PLAYERS,)),  # cards each seat gave and got back (§5)
        ("played_a", np.uint64),  # every card played so far (a multiset)
        ("played_b", np.uint64),
        ("leftover_a", np.uint64),  # cards dealt to nobody, face up (Russian Option)
        ("leftover_b", np.uint64),
        ("out_order", np.int64, (MAX_PLAYERS,)),  # seats in the order they went out
        ("n_out", np.int64),
        ("wish", np.int64),  # open wished rank, 0 = none
        ("top_code", np.int64),  # combination code of the trick's top, 0 = leading
        ("top_a", np.uint64),
        ("top_b", np.uint64),
        ("top_seat", np.int64),
        ("trick_a", np.uint64),  # every card in the trick in play
        ("trick_b", np.uint64),
        ("leader", np.int64),
        ("passed", np.int64),  # bitmask of seats that passed since the last play
        ("tricks", np.int64),
        ("bombs", np.int64),
    ],
    align=True,
)

GS_PRIVATE = np.dtype(
    [
        ("seat", np.int64),
        ("player", np.int64),
        ("hand_a", np.uint64),
        ("hand_b", np.uint64),
        ("gave_a", np.uint64),  # cards this seat gave in the exchange
        ("gave_b", np.uint64),
        ("got_a", np.uint64),  # cards it received
        ("got_b", np.uint64),
        ("rng", np.uint64),  # this player's decision stream
    ],
    align=True,
)
