"""A slow, plain reference of the decision encoding (docs/encoding.md), built from a ``View``'s
fields with Python ints and lists, one slot at a time, sharing no code with the kernel
(``tichusim/kernels/tichu/encoding.py``) but the slots' order. Tests compare the two."""

import numpy as np

from tichusim.cards import notation as cards
from tichusim.cards.combos import Combo

SEATS = 6
DECK_BITS = [b for b in range(64) if cards.DECK >> b & 1]  # card index -> bit
SPECIAL_RANKS = [cards.MAH_JONG, cards.DOG, cards.PHOENIX, cards.DRAGON]
DECISIONS = ["grand_tichu", "tichu", "pass", "play", "bomb", "wish", "dragon", "dog"]
KINDS = [
    "pass",
    "single",
    "pair",
    "triple",
    "stairs",
    "full house",
    "straight",
    "dog",
    "four-of-a-kind bomb",
    "straight-flush bomb",
]
POINTS = {5: 5, 10: 10, 13: 10}


def card_set(mask: int) -> list[float]:
    """One entry per card of the deck, in bit order."""
    return [1.0 if mask >> b & 1 else 0.0 for b in DECK_BITS]


def rank_set(mask: int) -> list[float]:
    """Per rank 2..A, entries k = 0..3 set when the set holds more than k cards of it; then
    the Mah Jong, the Dog, the Phoenix, the Dragon."""
    out = []
    for rank in range(2, 15):
        held = sum(1 for suit in range(4) if mask >> cards.card_bit(rank, suit) & 1)
        out += [1.0 if held > k else 0.0 for k in range(4)]
    return out + [1.0 if mask & c else 0.0 for c in SPECIAL_RANKS]


def one_hot(width: int, index: int | None) -> list[float]:
    out = [0.0] * width
    if index is not None:
        out[index] = 1.0
    return out


def points(mask: int) -> int:
    total = 0
    for bit in cards.cards_of(mask):
        if bit == cards.DRAGON:
            total += 25
        elif bit == cards.PHOENIX:
            total -= 25
        elif bit & cards.NORMAL:
            total += POINTS.get((bit.bit_length() - 1) % 16, 0)
    return total


def card_class(mask: int) -> int:
    """Dog 0, Mah Jong 1, ranks 2..14, Dragon 15, Phoenix 16."""
    if mask == cards.PHOENIX:
        return 16
    if mask == cards.DRAGON:
        return 15
    if mask == cards.DOG:
        return 0
    if mask == cards.MAH_JONG:
        return 1
    return (mask.bit_length() - 1) % 16


def combo(code: int) -> tuple[list[float], list[float], list[float], list[float]]:
    """Kind one-hot (pass at 0), length / 14, rank one-hot (rank rounded down), half."""
    if code == 0:
        return one_hot(10, 0), [0.0], one_hot(16, None), [0.0]
    c = Combo.from_code(code)
    whole = int(c.rank)
    return (
        one_hot(10, KINDS.index(c.kind)),
        [c.length / 14],
        one_hot(16, whole),
        [1.0 if c.rank != whole else 0.0],
    )


def reference(view, mask: int, code: int) -> dict[str, list[float]]:
    """The encoding of ``view``'s decision with the candidate (``mask``, ``code``), slot by
    slot."""
    f = view.fields()
    n, me = int(f["n_players"]), int(f["seat"])
    hand, played, ally, exposed = (int(f[k]) for k in ("hand", "played", "ally_hand", "exposed"))
    order = [(me + j) % n for j in range(n)]  # relative place j -> seat

    def per_seat(values) -> list[float]:
        return [float(values[s]) for s in order] + [0.0] * (SEATS - n)

    def per_seat_blocks(block) -> list[float]:
        out: list[float] = []
        for j in range(SEATS):
            out += block(order[j]) if j < n else block(None)
        return out

    elsewhere = cards.DECK & ~(hand | played | ally | exposed)
    out_seats = [int(s) for s in f["out_order"][: int(f["n_out"])]]
    top = int(f["top_code"])
    top_kind, top_length, top_rank, top_half = combo(top)

    def seat_of(seat: int) -> list[float]:
        return one_hot(SEATS, (seat - me) % n)

    def gifts(field: str) -> tuple[list[float], list[float]]:
        classes: list[float] = []
        held: list[float] = []
        for j in range(1, SEATS):
            card = int(f[field][order[j]]) if j < n else 0
            classes += one_hot(17, card_class(card) if card else None)
            held.append(1.0 if card and not card & played else 0.0)
        return classes, held

    given, given_held = gifts("given")
    received, _ = gifts("received")
    wish = int(f["wish"])
    variant = int(f["variant"])
    role = None
    if variant == 2:
        role = 0 if me == 0 else 1 if me == 2 else 2
    decision = DECISIONS.index(view.decision) if view.decision in DECISIONS else None
    cand_kind, cand_length, cand_rank, cand_half = combo(code)
    after = hand & ~mask
    wished = 2 <= wish <= 14 and any(mask >> cards.card_bit(wish, s) & 1 for s in range(4))

    slots = {
        "hand": card_set(hand),
        "hand_ranks": rank_set(hand),
        "elsewhere": card_set(elsewhere),
        "elsewhere_ranks": rank_set(elsewhere),
        "ally_hand": card_set(ally),
        "exposed": card_set(exposed),
        "played_by": per_seat_blocks(
            lambda s: card_set(int(f["played_by"][s]) if s is not None else 0)
        ),
        "counts": per_seat_blocks(
            lambda s: one_hot(15, min(int(f["counts"][s]), 14) if s is not None else None)
        ),
        "grand_tichu": per_seat([x != 0 for x in f["grand_tichu"]]),
        "tichu": per_seat([x != 0 for x in f["tichu"]]),
        "has_played": per_seat([x != 0 for x in f["has_played"]]),
        "out": per_seat([s in out_seats for s in range(n)]),
        "first_out": seat_of(out_seats[0]) if out_seats else one_hot(SEATS, None),
        "points_taken": per_seat([x / 100 for x in f["points_taken"]]),
        "lacks": per_seat_blocks(
            lambda s: [
                float(int(f["lacks"][s]) >> r & 1) if s is not None else 0.0 for r in range(1, 15)
            ]
        ),
        "passed": per_seat([int(f["passed"]) >> s & 1 for s in range(n)]),
        "top_seat": seat_of(int(f["top_seat"])) if top else one_hot(SEATS, None),
        "leader": seat_of(int(f["leader"])) if top else one_hot(SEATS, None),
        "top_kind": top_kind,
        "top_length": top_length,
        "top_rank": top_rank,
        "top_half": top_half,
        "top_cards": card_set(int(f["top_mask"]) if top else 0),
        "trick_points": [points(int(f["trick_cards"])) / 100],
        "wish": one_hot(13, wish - 2 if 2 <= wish <= 14 else None),
        "wish_free": per_seat([int(f["wish_free"]) >> s & 1 for s in range(n)]),
        "tricks": [int(f["tricks"]) / 16],
        "bombs": [int(f["bombs"]) / 4],
        "given": given,
        "given_held": given_held,
        "received": received,
        "variant": one_hot(3, variant),
        "role": one_hot(3, role),
        "phoenix_led_half": [1.0 if f["rules"]["phoenix_led_half"] else 0.0],
        "decision": one_hot(8, decision),
        "cand_cards": card_set(mask),
        "cand_kind": cand_kind,
        "cand_length": cand_length,
        "cand_rank": cand_rank,
        "cand_half": cand_half,
        "cand_points": [points(mask) / 100],
        "cand_wish": [1.0 if wished else 0.0],
        "after": card_set(after),
        "after_ranks": rank_set(after),
        "after_count": one_hot(15, min(bin(after).count("1"), 14)),
    }
    return slots


def reference_row(view, mask: int, code: int, order: list[str]) -> np.ndarray:
    """``reference``'s slots laid end to end in ``order``."""
    slots = reference(view, mask, code)
    assert sorted(slots) == sorted(order), "the reference and the layout name other slots"
    return np.array([x for name in order for x in slots[name]], np.float32)
