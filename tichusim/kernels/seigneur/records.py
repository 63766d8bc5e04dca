"""Grand Seigneur's records (RULES.md §5): what a round fills, its event codes, its scratch.

``GS_ROUND`` is one round's result, ``GS_SEAT`` one player's; ``GS_WORK`` a worker's scratch
with the strategies, options, move buffers and event log. Card sets are two-deck multisets
``(a, b)`` (``cards.py``). Shared by ``engine.py`` and ``batch.py``; error codes are in
``kernels/errors.py``.
"""

import numpy as np

from ..outside import SCRIPT_FIELDS
from .cards import MAX_CARDS
from .moves import MAX_MOVES
from .policies import N_GS_PARAMS
from .rules import GS_RULES
from .view import MAX_PLAYERS

MAX_BOMBS = 256  # bombs one hand can offer at once (a 16-card hand: one suit's runs, fours)

GS_ROUND = np.dtype(
    [
        ("round", np.int64),  # the round key: game * GAME_KEY_STRIDE + round in game
        ("game", np.int64),
        ("round_in_game", np.int64),
        ("dealer", np.int64),  # player
        ("leader", np.int64),  # player who led the first trick
        ("tricks", np.int64),
        ("bombs", np.int64),
        ("wish", np.int64),  # rank wished with the Mah Jong, 0 none, -1 the Mah Jong unplayed
        ("first_out", np.int64),  # player: the new Grand Seigneur
        ("last", np.int64),  # player left holding cards
        ("leftover_a", np.uint64),  # cards out of play (Russian Option)
        ("leftover_b", np.uint64),
        ("bombs_out_of_turn", np.int64),  # of ``bombs``, those played in a §2.9 window
        ("error", np.int64),
    ],
    align=True,
)

GS_SEAT = np.dtype(
    [  # one per player (indexed by player, not seat)
        ("seat", np.int64),
        ("rank_before", np.int64),  # 0 in a game's first round
        ("rank_after", np.int64),  # finishing order 1..n
        ("cards", np.int64),  # cards dealt
        ("dealt_a", np.uint64),
        ("dealt_b", np.uint64),
        ("gave_a", np.uint64),  # in the exchange: the best cards, or the cards given back
        ("gave_b", np.uint64),
        ("got_a", np.uint64),
        ("got_b", np.uint64),
        # what the player did in the round (from ``GS_WORK.stats``, by seat)
        ("bombs_played", np.int8),  # in turn or out of turn (§2.9)
        ("bombs_out_of_turn", np.int8),
        ("tricks_won", np.int16),  # tricks it won (they leave play, §5)
        ("cards_left", np.int16),  # cards it still held at the end (the last player's hand)
    ],
    align=True,
)

# event codes of the log (read by ``games/seigneur.py``); a row is (event, seat, a, b, code, extra)
EV_DEAL, EV_LEFTOVER, EV_GIVE, EV_GIVE_BACK, EV_PLAY, EV_PASS, EV_BOMB = range(7)
EV_WISH, EV_WISH_DONE, EV_DOG, EV_TRICK, EV_OUT, EV_END = range(7, 13)
LOG_WIDTH = 6
LOG_ROWS = 8192

# ``GS_WORK.stats[seat, GS_ST_*]``: the engine's per-seat counts, copied to ``GS_SEAT`` at the end
GS_ST_BOMBS, GS_ST_BOMBS_OOT, GS_ST_TRICKS = range(3)
N_GS_STATS = 3

GS_WORK = np.dtype(
    [
        # a worker's scratch (record fields carry no reference count: see tichu/records.WORK)
        ("params", np.float64, (MAX_PLAYERS, N_GS_PARAMS)),  # by player
        ("n_players", np.int64),
        ("deck_kind", np.int64),
        ("rules", GS_RULES),  # the table's rules Options (rules.py)
        ("moves_a", np.uint64, (MAX_MOVES,)),
        ("moves_b", np.uint64, (MAX_MOVES,)),
        ("moves_c", np.int64, (MAX_MOVES,)),
        ("check_a", np.uint64, (MAX_MOVES,)),  # the checker's own list of plays
        ("check_b", np.uint64, (MAX_MOVES,)),
        ("check_c", np.int64, (MAX_MOVES,)),
        ("bombs_a", np.uint64, (MAX_BOMBS,)),
        ("bombs_b", np.uint64, (MAX_BOMBS,)),
        ("bombs_c", np.int64, (MAX_BOMBS,)),
        ("deck", np.int64, (MAX_CARDS,)),
        ("seat_player", np.int64, (MAX_PLAYERS,)),
        ("rank_seat", np.int64, (MAX_PLAYERS + 1,)),  # seat of each rank 1..n (exchange)
        ("discard_a", np.uint64),  # cards of finished tricks (out of play)
        ("discard_b", np.uint64),
        ("stats", np.int64, (MAX_PLAYERS, N_GS_STATS)),  # by seat: GS_ST_* of the round
        ("logging", np.bool_),
        ("log", np.int64, (LOG_ROWS, LOG_WIDTH)),
        # the answers of decisions taken from Python, and the one waited for (outside.py)
        *SCRIPT_FIELDS,
    ],
    align=True,
)
