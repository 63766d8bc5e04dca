"""Decisions taken outside the engine (from Python), and how a round waits for one, jitted.

A seat's strategy row may mark decisions as *taken outside*: one slot of the row holds a bit
per decision ``D_*`` (``taken_outside``). For such a decision the engine does not call a
policy; it reads the round's **script**, the answers given so far in the order the engine asks
for them, each with the seat's decision stream as the answer left it (a scripted strategy
answering from Python draws from the same stream the engine would have). Past the end of the
script the engine writes what it waits for into ``work.asked``, leaves the buffers of that
decision (the plays, the bombs) filled, and stops the round with ``ERR_PENDING``: the round's
records then show the table at that decision. The driver (``games/steps.py``) appends the
answer and plays the round again from the deal (or on from there, below).

So there is one engine: a round is a function of (seed, key, strategies, script), the replay
reaches the same decision in the same state, and a round whose seats are all scripted never
stops. A replay costs the round so far (a few microseconds). The team engine spares it where
the round stopped in the play (a Tichu call before a turn, a play, a bomb): it keeps that
place beside the records it left, and when the script holds that one answer more it goes on
from the kept records (``tichu/tricks.py``, ``resume_point``), the state the replay would
reach, taking the answer as ``answer`` would. The engines read these answers only where
compiled with ``outside`` (the stepping entries); the batch entries are compiled with those
branches pruned, and run as fast as before.

Answers are one ``int64`` each:

====================  ==========================================================
decision              answer
====================  ==========================================================
``D_GRAND_TICHU``     1 to call, 0 not
``D_TICHU``           1 to call, 0 not (``asked`` detail: the Tichu decision point)
``D_PASS``            for each seat the passing reaches, ``d`` places on: card
                      index + 1 in bits ``6 * (d - 1)`` up (0 where it gives none)
``D_PLAY``            index into ``work``'s plays, -1 to pass (detail: may pass)
``D_BOMB``            index into ``work``'s bombs, -1 for none
``D_WISH``            the wished rank 2..14, 0 for none
``D_DRAGON``          the seat given the Dragon's trick
``D_DOG``             the partner the Dog leads to (Tientsin)
``D_GIVE_BACK``       Grand Seigneur's exchange: card index + 1 per card in bits
                      ``6 * i`` up (detail: how many cards)
====================  ==========================================================
"""

import numpy as np

from .jit import njit

(D_NONE, D_GRAND_TICHU, D_TICHU, D_PASS, D_PLAY, D_BOMB, D_WISH, D_DRAGON, D_DOG, D_GIVE_BACK) = (
    range(10)
)
PENDING = -(1 << 62)  # the answer of a decision past the script's end
MAX_SCRIPT = 4096  # answers per round: more than any round asks of Python
ASKED_WIDTH = 4  # work.asked: decision (D_NONE: none), seat, detail, number of choices

# the fields both engines' WORK records carry for the script
SCRIPT_FIELDS = [
    ("script", np.int64, (MAX_SCRIPT,)),
    ("script_rng", np.uint64, (MAX_SCRIPT,)),  # the seat's stream after each answer
    ("script_len", np.int64),
    ("script_pos", np.int64),
    ("asked", np.int64, (ASKED_WIDTH,)),
]


@njit(cache=True, inline="always")
def taken_outside(flags, decision):
    """Whether the strategy row's ``flags`` slot marks ``decision`` as taken from Python."""
    return (np.int64(flags) >> decision) & 1 != 0


@njit(cache=True, inline="always")
def start_script(work):
    """A round starts reading its script from the first answer, waiting for nothing."""
    work.script_pos = 0
    work.asked[0] = D_NONE


@njit(cache=True)
def answer(work, me, seat, decision, detail, choices):
    """The script's next answer (the seat's stream set as it left it), or ``PENDING`` with the
    decision written to ``work.asked``."""
    i = work.script_pos
    if i < work.script_len:
        work.script_pos = i + 1
        me.rng = work.script_rng[i]
        return work.script[i]
    if work.asked[0] == D_NONE:
        work.asked[0] = decision
        work.asked[1] = seat
        work.asked[2] = detail
        work.asked[3] = choices
    return PENDING


@njit(cache=True, inline="always")
def packed_card(packed, i):
    """The card index in slot ``i`` (6 bits, index + 1) of a packed answer, -1 for none."""
    return ((packed >> (6 * i)) & 63) - 1
