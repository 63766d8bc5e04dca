"""The team games' records (RULES.md §2-§4): what a round fills, its event codes, its scratch.

``ROUND`` is one round's result and ``SEAT`` one seat's (the Python face turns them into the
rounds and seats tables); ``WORK`` is a worker's scratch, one per thread, with the strategy rows,
the move buffers and the event log; a log row is ``(event, seat, cards, code, extra)`` with one
of the ``EV_*`` codes. The engine (``engine.py``) and the drivers (``batch.py``) share them;
why a round stopped is in ``kernels/errors.py``.
"""

import numpy as np

from ..moves import MAX_MOVES
from ..outside import SCRIPT_FIELDS
from .learned import LEARN_FLOATS
from .recorded import REC_FIELDS
from .rules import RULES
from .variants import MAX_SEATS

N = 4  # seats of the 4-player game; partners sit opposite (RULES.md §2.1)
N_PARAMS = 88  # strategy parameters per seat
MAX_BOMBS = 64  # a 14-card hand holds at most 3 four-of-a-kinds and 40-odd straight flushes

ROUND = np.dtype(
    [
        ("round", np.int64),
        ("first_drawer", np.int64),
        ("double_victory", np.bool_),  # partners out first and second (§2.13); Tientsin:
        # the triple victory of one team's three players (§3)
        ("card_points", np.int64, (2,)),
        ("score", np.int64, (2,)),
        ("tricks", np.int64),
        ("bombs", np.int64),
        ("wish", np.int64),  # rank wished with the Mah Jong, 0 = none, -1 = Mah Jong unplayed
        ("dragon_to", np.int64),  # seat given a Dragon trick, -1 = none
        ("first_out", np.int64),
        ("king", np.int64),  # Wu Wang: the King (player 0..2, set by the driver); -1 otherwise
        ("bombs_out_of_turn", np.int64),  # of ``bombs``, those played in a §2.9 window
        ("wish_fulfilled_by", np.int64),  # seat whose play fulfilled the wish (§2.11), -1 none
        ("hand_points_left", np.int64),  # card points still in the hands at the end
        ("table_points_left", np.int64),  # points of a trick left in play by a victory
        ("error", np.int64),
    ],
    align=True,
)

SEAT = np.dtype(
    [
        ("hand8", np.uint64),  # the cards seen before Grand Tichu: 8 (Tientsin 6)
        ("hand14", np.uint64),  # the whole dealt hand: 14 (Tientsin 10 or 9)
        ("hand_passed", np.uint64),  # the hand after passing
        # given[d - 1]: to the seat d places on (4 seats: right opponent, partner, left
        # opponent, RULES.md §2.1); 0 where the passing gives nothing (§3, §4)
        ("given", np.uint64, (MAX_SEATS - 1,)),
        ("received", np.uint64, (MAX_SEATS - 1,)),  # received[d - 1]: from the seat d places on
        ("grand_tichu", np.bool_),
        ("tichu", np.bool_),
        # 1..n-1 order out, n the last holding cards, 0 still holding after a victory
        ("finish", np.int64),
        ("card_points", np.int64),  # points in the tricks this seat ended the round holding
        ("points", np.int64),  # the round score of the seat's team
        # what the seat did in the round, tallied by the engine as it happens
        ("bombs_played", np.int8),  # in turn or out of turn (§2.9)
        ("bombs_out_of_turn", np.int8),
        ("first_bomb", np.int32),  # code of the seat's first bomb (combos.py), 0 = none
        ("first_bomb_trick", np.int16),  # tricks completed before it, -1 = none
        ("tricks_won", np.int16),  # tricks taken into its pile (a Dragon's: the receiver's)
        ("card_points_won", np.int16),  # their points, before the end-of-round hand-overs
        ("tichu_when", np.int8),  # the policies.TICHU_* point of its Tichu call, -1 = none
        ("tichu_cards", np.int8),  # cards it held then, -1 = none
        ("tichu_trick", np.int16),  # tricks completed then, -1 = none
        ("phoenix_as", np.int8),  # PHOENIX_* below
        ("dragon", np.int8),  # DRAGON_* below
        ("dog_led", np.bool_),
        ("mahjong_wish", np.int8),  # -1 it did not play the Mah Jong, else the wish (0 none)
        ("wish_fulfilled", np.bool_),  # its play (or bomb) fulfilled the wish (§2.11)
        ("cards_left", np.int8),  # cards it still held at the end
    ],
    align=True,
)

# event codes of the log (read by ``games/transcript.py``)
EV_DEAL8, EV_DEAL14, EV_GRAND_TICHU, EV_TICHU, EV_GIVE, EV_PLAY, EV_PASS, EV_BOMB = range(8)
EV_WISH, EV_WISH_DONE, EV_DOG, EV_TRICK, EV_DRAGON, EV_OUT, EV_END, EV_HAND_TO = range(8, 16)
# ``phoenix_as``: how the seat spent the Phoenix (§2.6)
PHOENIX_NONE, PHOENIX_HELD, PHOENIX_LED, PHOENIX_ON_SINGLE, PHOENIX_IN_COMBO = -1, 0, 1, 2, 3
# ``dragon``: not played, played (its trick not won with it: bombed, or the round ended), or
# played and its trick given to an opponent (§2.12)
DRAGON_NONE, DRAGON_PLAYED, DRAGON_GIVEN = 0, 1, 2
# ``WORK.fixed_ranks`` counts suit-less cards by rank 2..14; its entries 0 and 1, never a rank,
# say what a fixed deal fixes: entry FIX_MODE is 0 for a seat's first 8 cards (Grand Tichu
# odds), or FIX_AFTER_PASSING + 256 * call for its whole hand after the passing (Tichu odds),
# the seat's Tichu call set by ``call``: FIX_CALL_NEVER, FIX_CALL_AFTER_PASSING, or
# FIX_CALL_AT_PLAYED + k (before its first own turn once k cards have been played); entry
# FIX_RECEIVED names the cards it received, 6 bits per seat after it (card index + 1, 0 =
# drawn from the hand at random). FIX_BEFORE_PASSING (``pass-advice``): the fixed cards are
# the seat's whole dealt hand, before the passing (14; RULES.md §2.4), in a random order (its
# first 8 a random 8 of them); entry FIX_RECEIVED then names the cards the seat *gives*, 6 bits
# per seat after it (right opponent, partner, left opponent: §2.1), card index + 1, all of
# them or 0 (the seat's strategy passes)
FIX_MODE, FIX_RECEIVED = 0, 1
FIX_AFTER_PASSING, FIX_BEFORE_PASSING = 1, 2
# a round played from its record (``recorded.py``): the deck lies in ``WORK.deck`` as dealt
FIX_DECK = 3
FIX_CALL_NEVER, FIX_CALL_AFTER_PASSING, FIX_CALL_AT_PLAYED = 0, 1, 2

EV_TRICKS_TO = 16  # Tientsin: a player's tricks handed over at the end (§3)
EV_SHOW = 17  # Wu Wang: the Minister's hand laid face up after passing (§4)
LOG_WIDTH = 5
LOG_ROWS = 2048  # more events than any round has (a round that overflows reports ERR_LOG)

WORK = np.dtype(
    [
        # A worker's scratch, one record per thread. Kernels get its arrays as record fields,
        # which carry no reference count: array arguments would cost two atomic operations per
        # call and made up a third of the engine's time.
        ("variant", np.int64),  # the variant (variants.py)
        ("rules", RULES),  # the table's rules Options (rules.py)
        ("params", np.float64, (MAX_SEATS, N_PARAMS)),  # each seat's strategy row (slots.py)
        ("moves_m", np.uint64, (MAX_MOVES,)),  # the deciding strategy's plays
        ("moves_c", np.int64, (MAX_MOVES,)),
        ("check_m", np.uint64, (MAX_MOVES,)),  # the checker's own list of legal plays
        ("check_c", np.int64, (MAX_MOVES,)),
        ("bombs_m", np.uint64, (MAX_BOMBS,)),  # bombs offered in an out-of-turn window
        ("bombs_c", np.int64, (MAX_BOMBS,)),
        ("deck", np.int64, (56,)),
        ("piles", np.uint64, (MAX_SEATS,)),  # cards in the tricks each seat has taken
        ("gifts", np.uint64, (MAX_SEATS, MAX_SEATS - 1)),  # passing: [seat, offset - 1]
        # a fixed first 8 cards for one seat (Grand Tichu odds), or its whole hand after
        # (Tichu odds) or before (pass advice) the passing: -1 = a free deal
        ("fixed_seat", np.int64),
        ("fixed_cards", np.uint64),  # exact cards of the 8 (or of the hand)
        ("fixed_ranks", np.int64, (15,)),  # how many more cards of rank r, suit drawn per round
        # a tichu-odds deal (FIX_AFTER_PASSING): the card each seat gives the fixed seat, and
        # the card the fixed seat gives each seat (deal._deal_after_passing)
        ("fixed_take", np.uint64, (MAX_SEATS,)),
        ("fixed_give", np.uint64, (MAX_SEATS,)),
        ("logging", np.bool_),
        ("log", np.int64, (LOG_ROWS, LOG_WIDTH)),
        # the answers of decisions taken from Python, and the one waited for (outside.py)
        *SCRIPT_FIELDS,
        # a recorded round's actions, which answer those decisions (recorded.py)
        *REC_FIELDS,
        ("king", np.int64),  # Wu Wang: the player who is King this round (positions: §4)
        # where a stepped round stopped in the play for an answer from Python (a Tichu call
        # before a turn, a play, a bomb), kept so that the next call goes on from there
        # (tricks.resume_point): the seat answering (-1: none, replay from the deal), the
        # seat whose play or pass opened the bomb window (-1: the seat's own turn), the seats
        # holding a bomb, the log rows so far
        ("resume_seat", np.int64),
        ("resume_window", np.int64),
        ("resume_armed", np.int64),
        ("resume_nlog", np.int64),
        # the learned play's scratch (learned.py), on cache lines in a record made by
        # ``learned.record``; the models themselves are the kernels' own argument
        # (table_models.py), never in a work record
        ("learn", np.float32, (LEARN_FLOATS,)),
    ],
    align=True,
)
