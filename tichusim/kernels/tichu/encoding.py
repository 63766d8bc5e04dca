"""The features of a decision: what one seat knows and one candidate answer, as ``float32``.

A learned player scores each candidate of a decision (a play, a bomb, the pass) from one vector
of ``N_FEATURES`` numbers. The vector is built from exactly what a strategy is handed (RULES.md
§6): the table's ``PUBLIC`` record and the deciding seat's ``PRIVATE`` record (``view.py``),
the decision asked (``outside.py``'s ``D_*`` code) and the candidate as the engine lists it, a
card mask and its combination code (``combos.py``; a pass or "no bomb" is mask 0, code 0). No
other seat's hand can reach it.

The vector is two parts, in this order:

* the **state** part, ``[0, STATE_SIZE)``: the same for every candidate of a decision, so a
  decision encodes it once (``encode_state``) and a model may weigh it once;
* the **candidate** part, ``[STATE_SIZE, N_FEATURES)``: the candidate's cards and combination,
  and the hand it leaves (``encode_candidate``).

``SLOTS`` lists the slots (name, width) in order; ``docs/encoding.md`` gives each one's meaning
and first index, and a test holds that page to ``SLOTS``. Per-seat slots are *relative*: entry
``j`` of a slot is the seat ``j`` places after the deciding seat in turn order, six entries
(Tientsin, §3), zeros past the table's seats. At four seats entry 0 is the seat
itself, 1 its right-hand opponent, 2 its partner, 3 its left-hand opponent (§2.1); at six the
even entries are its team (§3); Wu Wang's three players sit at four positions (§4), read as the
4-seat game, the role slot saying which position is whose.

Card sets are written two ways (``docs/encoding.md``): ``cards``, one entry per card of the
deck in bit order (``CARD_INDEX``: Dog, Mah Jong, 2..A of Jade, Dragon, Phoenix, 2..A of Sword,
Pagoda, Star), and ``ranks``, four entries per rank 2..A counting its cards in unary (the
entry ``k`` is 1 when the set holds more than ``k`` cards of that rank), then the Mah Jong, the
Dog, the Phoenix and the Dragon. Counts and points are scaled to about [0, 1].

``ENCODING_VERSION`` changes with any change of what a slot means or how it is scaled;
``LAYOUT_HASH`` digests it with ``SLOTS``, and a weights file names the encoding it was trained
on by that hash.

The kernels allocate nothing: they write into a row the caller gives (``out``), so a player in
the engine encodes every candidate of a decision into one preallocated array.
"""

import hashlib

import numpy as np

from ..bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    SPECIALS,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
)
from ..hand import card_points
from ..jit import njit
from .variants import KING, MAX_SEATS, MINISTER, WUWANG

ENCODING_VERSION = 1

CARDS = 56  # a card set, one entry per card
RANKS = 56  # a card set by rank: 13 ranks x 4 (unary count), then Mah Jong, Dog, Phoenix, Dragon
COUNT_CLASSES = 15  # cards in a hand: 0..14
KIND_CLASSES = 10  # combination kinds (combos.py: 0 = pass / no top .. BOMB_SF = 9)
RANK_CLASSES = 16  # a combination's rank, rank2 // 2: 0 (a led Phoenix worth ½) .. 15 (Dragon)
CARD_CLASSES = 17  # one card by rank: Dog 0, Mah Jong 1, 2..14, Dragon 15, Phoenix 16
LACK_CLASSES = 14  # ranks a seat may be known to lack: Mah Jong, 2..14
DECISION_CLASSES = 8  # outside.py's D_GRAND_TICHU (1) .. D_DOG (8)
GIFT_SEATS = MAX_SEATS - 1  # the other seats, 1..5 places on
POINTS_SCALE = 100.0
LENGTH_SCALE = 14.0
TRICKS_SCALE = 16.0
BOMBS_SCALE = 4.0

SLOTS = (
    # -- the state: what the seat knows -------------------------------------------------
    ("hand", CARDS),
    ("hand_ranks", RANKS),
    ("elsewhere", CARDS),
    ("elsewhere_ranks", RANKS),
    ("ally_hand", CARDS),
    ("exposed", CARDS),
    ("played_by", MAX_SEATS * CARDS),
    ("counts", MAX_SEATS * COUNT_CLASSES),
    ("grand_tichu", MAX_SEATS),
    ("tichu", MAX_SEATS),
    ("has_played", MAX_SEATS),
    ("out", MAX_SEATS),
    ("first_out", MAX_SEATS),
    ("points_taken", MAX_SEATS),
    ("lacks", MAX_SEATS * LACK_CLASSES),
    ("passed", MAX_SEATS),
    ("top_seat", MAX_SEATS),
    ("leader", MAX_SEATS),
    ("top_kind", KIND_CLASSES),
    ("top_length", 1),
    ("top_rank", RANK_CLASSES),
    ("top_half", 1),
    ("top_cards", CARDS),
    ("trick_points", 1),
    ("wish", 13),
    ("wish_free", MAX_SEATS),
    ("tricks", 1),
    ("bombs", 1),
    ("given", GIFT_SEATS * CARD_CLASSES),
    ("given_held", GIFT_SEATS),
    ("received", GIFT_SEATS * CARD_CLASSES),
    ("variant", 3),
    ("role", 3),
    ("phoenix_led_half", 1),
    ("decision", DECISION_CLASSES),
    # -- the candidate ----------------------------------------------------------------
    ("cand_cards", CARDS),
    ("cand_kind", KIND_CLASSES),
    ("cand_length", 1),
    ("cand_rank", RANK_CLASSES),
    ("cand_half", 1),
    ("cand_points", 1),
    ("cand_wish", 1),
    ("after", CARDS),
    ("after_ranks", RANKS),
    ("after_count", COUNT_CLASSES),
)
FIRST_CANDIDATE_SLOT = "cand_cards"
# the slots whose entries are counts or points scaled (any value); every other entry is 0 or 1
SCALED_SLOTS = (
    "points_taken",
    "top_length",
    "trick_points",
    "tricks",
    "bombs",
    "cand_length",
    "cand_points",
)


def _offsets(slots):
    at, out = 0, {}
    for name, width in slots:
        out[name] = at
        at += width
    return out, at


OFFSET, N_FEATURES = _offsets(SLOTS)
STATE_SIZE = OFFSET[FIRST_CANDIDATE_SLOT]
SCALED_FEATURES = np.array(
    sorted(OFFSET[name] + i for name, width in SLOTS if name in SCALED_SLOTS for i in range(width)),
    np.int64,
)  # their entries' indexes, in order
LAYOUT_HASH = hashlib.sha256(repr((ENCODING_VERSION, SLOTS)).encode()).hexdigest()[:16]

# the slots' first indexes as plain module constants: the kernels read them as compile-time
# constants
HAND = OFFSET["hand"]
HAND_RANKS = OFFSET["hand_ranks"]
ELSEWHERE = OFFSET["elsewhere"]
ELSEWHERE_RANKS = OFFSET["elsewhere_ranks"]
ALLY_HAND = OFFSET["ally_hand"]
EXPOSED = OFFSET["exposed"]
PLAYED_BY = OFFSET["played_by"]
COUNTS = OFFSET["counts"]
GRAND_TICHU = OFFSET["grand_tichu"]
TICHU = OFFSET["tichu"]
HAS_PLAYED = OFFSET["has_played"]
OUT = OFFSET["out"]
FIRST_OUT = OFFSET["first_out"]
POINTS_TAKEN = OFFSET["points_taken"]
LACKS = OFFSET["lacks"]
PASSED = OFFSET["passed"]
TOP_SEAT = OFFSET["top_seat"]
LEADER = OFFSET["leader"]
TOP_KIND = OFFSET["top_kind"]
TOP_LENGTH = OFFSET["top_length"]
TOP_RANK = OFFSET["top_rank"]
TOP_HALF = OFFSET["top_half"]
TOP_CARDS = OFFSET["top_cards"]
TRICK_POINTS = OFFSET["trick_points"]
WISH = OFFSET["wish"]
WISH_FREE = OFFSET["wish_free"]
TRICKS = OFFSET["tricks"]
BOMBS = OFFSET["bombs"]
GIVEN = OFFSET["given"]
GIVEN_HELD = OFFSET["given_held"]
RECEIVED = OFFSET["received"]
VARIANT = OFFSET["variant"]
ROLE = OFFSET["role"]
PHOENIX_LED_HALF = OFFSET["phoenix_led_half"]
DECISION = OFFSET["decision"]
CAND_CARDS = OFFSET["cand_cards"]
CAND_KIND = OFFSET["cand_kind"]
CAND_LENGTH = OFFSET["cand_length"]
CAND_RANK = OFFSET["cand_rank"]
CAND_HALF = OFFSET["cand_half"]
CAND_POINTS = OFFSET["cand_points"]
CAND_WISH = OFFSET["cand_wish"]
AFTER = OFFSET["after"]
AFTER_RANKS = OFFSET["after_ranks"]
AFTER_COUNT = OFFSET["after_count"]

ALL_CARDS = NORMAL | SPECIALS
DECK = int(ALL_CARDS)


def _card_index():
    """Bit -> card index: the cards of the deck numbered in bit order (-1: no card)."""
    out = np.full(64, -1, np.int64)
    i = 0
    for b in range(64):
        if DECK >> b & 1:
            out[b] = i
            i += 1
    return out


CARD_INDEX = _card_index()


@njit(cache=True, inline="always")
def _put_cards(mask, out, at):
    """The ``cards`` form of ``mask`` at ``out[at:at + 56]`` (the entries start at zero)."""
    m = mask
    while m != ZERO:
        out[at + CARD_INDEX[lowest_bit_index(m)]] = 1.0
        m &= m - ONE


@njit(cache=True, inline="always")
def _put_level(ranks, level, out, at):
    """Entry ``4 (r - 2) + level`` for each rank ``r`` of the 16-bit rank set ``ranks``."""
    m = ranks
    while m != ZERO:
        r = lowest_bit_index(m)
        out[at + 4 * (r - 2) + level] = 1.0
        m &= m - ONE


@njit(cache=True, inline="always")
def _put_ranks(mask, out, at):
    """The ``ranks`` form of ``mask`` at ``out[at:at + 56]`` (the entries start at zero)."""
    ge1, ge2, ge3, ge4 = rank_multiplicity(mask)
    _put_level(ge1, 0, out, at)
    _put_level(ge2, 1, out, at)
    _put_level(ge3, 2, out, at)
    _put_level(ge4, 3, out, at)
    if mask & MAH_JONG:
        out[at + 52] = 1.0
    if mask & DOG:
        out[at + 53] = 1.0
    if mask & PHOENIX:
        out[at + 54] = 1.0
    if mask & DRAGON:
        out[at + 55] = 1.0


@njit(cache=True, inline="always")
def _card_class(mask):
    """The one card of ``mask`` by rank (``CARD_CLASSES``): its bit in its lane, the Phoenix
    16."""
    b = lowest_bit_index(mask)
    return 16 if b == 16 else b & 15


@njit(cache=True, inline="always")
def _put_combo(code, out, kind_at, length_at, rank_at, half_at):
    """A combination code's kind (one-hot, 0 for none), length, rank (one-hot) and half."""
    out[kind_at + (code >> 16)] = 1.0
    if code != 0:
        out[length_at] = ((code >> 8) & 0xFF) / LENGTH_SCALE
        rank2 = code & 0xFF
        out[rank_at + (rank2 >> 1)] = 1.0
        out[half_at] = rank2 & 1


@njit(cache=True, inline="always")
def _relative(seat, me, n):
    """The place of absolute ``seat`` after ``me`` in turn order (0: ``me`` itself)."""
    j = seat - me
    return j + n if j < 0 else j


@njit(cache=True, inline="always")
def _led_half(p):
    """Whether the table's rules value a led Phoenix at a half (the feature of that name)."""
    return p.rules.phoenix_led_half


@njit(cache=True)
def encode_state(p, me, decision, out):
    """Write the state part of seat ``me``'s view (``p`` the table's ``PUBLIC`` record, ``me``
    its ``PRIVATE`` record) at ``decision`` (a ``D_*`` code) into ``out[:STATE_SIZE]``."""
    for i in range(STATE_SIZE):
        out[i] = 0.0
    n = p.n_players
    seat = me.seat
    hand = me.hand
    _put_cards(hand, out, HAND)
    _put_ranks(hand, out, HAND_RANKS)
    elsewhere = ALL_CARDS & ~(hand | p.played | me.ally_hand | p.exposed)
    _put_cards(elsewhere, out, ELSEWHERE)
    _put_ranks(elsewhere, out, ELSEWHERE_RANKS)
    _put_cards(me.ally_hand, out, ALLY_HAND)
    _put_cards(p.exposed, out, EXPOSED)

    for j in range(n):
        s = seat + j
        if s >= n:
            s -= n
        _put_cards(p.played_by[s], out, PLAYED_BY + CARDS * j)
        out[COUNTS + COUNT_CLASSES * j + min(max(p.counts[s], 0), COUNT_CLASSES - 1)] = 1.0
        out[GRAND_TICHU + j] = 1.0 if p.grand_tichu[s] != 0 else 0.0
        out[TICHU + j] = 1.0 if p.tichu[s] != 0 else 0.0
        out[HAS_PLAYED + j] = 1.0 if p.has_played[s] != 0 else 0.0
        out[POINTS_TAKEN + j] = p.points_taken[s] / POINTS_SCALE
        lacks = p.lacks[s]
        for r in range(1, 15):
            if lacks >> r & 1:
                out[LACKS + LACK_CLASSES * j + r - 1] = 1.0
        out[PASSED + j] = p.passed >> s & 1
        out[WISH_FREE + j] = p.wish_free >> s & 1
    for k in range(min(p.n_out, n)):
        out[OUT + _relative(p.out_order[k], seat, n)] = 1.0
    if p.n_out > 0:
        out[FIRST_OUT + _relative(p.out_order[0], seat, n)] = 1.0

    # the trick in play (§2.8)
    top = p.top_code
    _put_combo(top, out, TOP_KIND, TOP_LENGTH, TOP_RANK, TOP_HALF)
    if top != 0:
        out[TOP_SEAT + _relative(p.top_seat, seat, n)] = 1.0
        out[LEADER + _relative(p.leader, seat, n)] = 1.0
        _put_cards(p.top_mask, out, TOP_CARDS)
    out[TRICK_POINTS] = card_points(p.trick_cards) / POINTS_SCALE
    if 2 <= p.wish <= 14:  # §2.11
        out[WISH + p.wish - 2] = 1.0
    out[TRICKS] = p.tricks / TRICKS_SCALE
    out[BOMBS] = p.bombs / BOMBS_SCALE

    # the seat's own passing (§2.4): the card given to and received from each other seat
    for j in range(1, n):
        s = seat + j
        if s >= n:
            s -= n
        given = me.given[s]
        if given != ZERO:
            out[GIVEN + CARD_CLASSES * (j - 1) + _card_class(given)] = 1.0
            if given & ~p.played:
                out[GIVEN_HELD + j - 1] = 1.0
        received = me.received[s]
        if received != ZERO:
            out[RECEIVED + CARD_CLASSES * (j - 1) + _card_class(received)] = 1.0

    out[VARIANT + p.variant] = 1.0
    if p.variant == WUWANG:  # §4: the King, the Minister he also plays, an opponent
        out[ROLE + (0 if seat == KING else 1 if seat == MINISTER else 2)] = 1.0
    out[PHOENIX_LED_HALF] = 1.0 if _led_half(p) else 0.0
    if 1 <= decision <= DECISION_CLASSES:
        out[DECISION + decision - 1] = 1.0


@njit(cache=True)
def encode_candidate(p, me, mask, code, out):
    """Write the candidate part of (``mask``, ``code``) for seat ``me`` into
    ``out[STATE_SIZE:N_FEATURES]``; mask 0 and code 0 for a pass or no bomb."""
    for i in range(STATE_SIZE, N_FEATURES):
        out[i] = 0.0
    _put_cards(mask, out, CAND_CARDS)
    _put_combo(code, out, CAND_KIND, CAND_LENGTH, CAND_RANK, CAND_HALF)
    out[CAND_POINTS] = card_points(mask) / POINTS_SCALE
    if 2 <= p.wish <= 14 and mask & rank_cards(p.wish):  # fulfils the wish (§2.11)
        out[CAND_WISH] = 1.0
    after = me.hand & ~mask
    _put_cards(after, out, AFTER)
    _put_ranks(after, out, AFTER_RANKS)
    out[AFTER_COUNT + min(popcount(after), COUNT_CLASSES - 1)] = 1.0


@njit(cache=True)
def encode(pub, privs, decision, mask, code, out):
    """The features of one candidate: ``pub`` the table's ``PUBLIC`` record (a one-record
    array), ``privs[0]`` the deciding seat's ``PRIVATE`` record, ``decision`` a ``D_*`` code,
    (``mask``, ``code``) the candidate; written into the row ``out`` (``N_FEATURES``)."""
    p = pub[0]
    me = privs[0]
    encode_state(p, me, decision, out)
    encode_candidate(p, me, mask, code, out)


@njit(cache=True)
def encode_all(pub, privs, decision, masks, codes, n, out):
    """The features of the candidates ``masks[:n]``/``codes[:n]`` of one decision, one per row
    of ``out`` (at least ``n`` rows of ``N_FEATURES``): the state part encoded once and copied
    to each row."""
    p = pub[0]
    me = privs[0]
    if n == 0:
        return
    first = out[0]
    encode_state(p, me, decision, first)
    for i in range(1, n):
        row = out[i]
        for k in range(STATE_SIZE):
            row[k] = first[k]
    for i in range(n):
        encode_candidate(p, me, masks[i], codes[i], out[i])


CANDIDATE_SIZE = N_FEATURES - STATE_SIZE


@njit(cache=True)
def encode_decisions(public, private, decision, start, masks, codes, rows, state_out, cand_out):
    """The features of many decisions, split as a model with a split first layer reads them
    (training): decision ``d = rows[i]`` (``public[d]`` its table's ``PUBLIC`` record,
    ``private[d]`` the deciding seat's ``PRIVATE`` record, ``decision[d]`` its ``D_*`` code, its
    candidates ``masks``/``codes`` from ``start[d]`` to ``start[d + 1]``) writes its state part
    once, into row ``i`` of ``state_out`` (``STATE_SIZE`` wide), and the candidate part of each
    of its candidates into the next rows of ``cand_out`` (``CANDIDATE_SIZE`` wide; the
    decisions' candidates one after another, in the order of ``rows``). State row ``i`` joined
    to a candidate row of its decision is that candidate's ``encode`` row. Returns the number
    of candidate rows written. Unlike the player's kernels it allocates: one scratch row per
    call."""
    scratch = np.empty(N_FEATURES, np.float32)
    at = 0
    for i in range(rows.shape[0]):
        d = rows[i]
        p = public[d]
        me = private[d]
        encode_state(p, me, decision[d], state_out[i])
        for c in range(start[d], start[d + 1]):
            encode_candidate(p, me, masks[c], codes[c], scratch)
            row = cand_out[at]
            for k in range(CANDIDATE_SIZE):
                row[k] = scratch[STATE_SIZE + k]
            at += 1
    return at


__all__ = [
    "CANDIDATE_SIZE",
    "CARD_INDEX",
    "ENCODING_VERSION",
    "LAYOUT_HASH",
    "N_FEATURES",
    "OFFSET",
    "SCALED_FEATURES",
    "SCALED_SLOTS",
    "SLOTS",
    "STATE_SIZE",
    "encode",
    "encode_all",
    "encode_candidate",
    "encode_decisions",
    "encode_state",
]
