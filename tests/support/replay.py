"""Independent replay of an engine event log against RULES.md §2, §3 and §4 and the reference.

``check_round`` rebuilds every hand, trick and pile from the log alone (plus the dealt hands)
and asserts each rule: the deal's hand sizes, who may call Grand Tichu and when, who passes to
whom, who may act when, that every regular play is one of the reference's legal plays
(``reference.legal_plays``, brute force), that bombs out of turn are bombs that beat the top,
the Dog's lead, the wish, trick ends, the Dragon's gift, going out, the end of the round, the
transfers and the score. It shares no code with the engine except the card notation and the
event codes; the three tables' differences are restated here from RULES.md.

Seats are positions in turn order. In Wu Wang (§4) the King is at 0 and the Minister at 2.
With ``phoenix_led_half`` the round was played under the Option of §2.6: a led Phoenix is
worth ½ (the reference's ``phoenix_led_half``), so the Mah Jong may be played on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from support import reference as ref
from tichusim import cards
from tichusim.kernels.tichu import records

POINTS = {"5": 5, "T": 10, "K": 10}
KING, MINISTER = 0, 2


@dataclass(frozen=True)
class Variant:
    """What differs between the team games, read off RULES.md."""

    seats: int
    seen: int  # cards seen before the Grand Tichu decision (§2.2; §3: 6)
    victory: int  # one team's players out first that end the round (§2.13 two; §3 three)

    def hand_size(self, draw_position: int) -> int:
        if self.seats == 6:  # §3 Decision: the first two in draw order get 10, the others 9
            return 10 if draw_position < 2 else 9
        return 14


VARIANTS = {"nanjing": Variant(4, 8, 2), "tientsin": Variant(6, 6, 3), "wuwang": Variant(4, 8, 2)}


def passes_expected(variant: str) -> set[tuple[int, int]]:
    """(giver, receiver) pairs of the passing: every other player (§2.4), the two partners
    (§3), the three real players among themselves (§4: the Minister neither gives nor takes)."""
    n = VARIANTS[variant].seats
    pairs = {(a, b) for a in range(n) for b in range(n) if a != b}
    if variant == "tientsin":
        return {(a, b) for a, b in pairs if (b - a) % 2 == 0}
    if variant == "wuwang":
        return {(a, b) for a, b in pairs if MINISTER not in (a, b)}
    return pairs


def toks(mask) -> frozenset:
    m = int(np.uint64(np.int64(mask))) if not isinstance(mask, int) else mask
    return frozenset(cards.format(m).split()) if m else frozenset()


def pts(cs) -> int:
    p = sum(POINTS.get(c[0], 0) for c in cs if c not in ref.SPECIALS)
    return p + (25 if "Dr" in cs else 0) - (25 if "Ph" in cs else 0)


def _next_holder(hands, seat):
    """The next seat after ``seat`` in turn order still holding cards (``seat`` itself last)."""
    n = len(hands)
    return next((seat + k) % n for k in range(1, n + 1) if hands[(seat + k) % n])


def check_round(rnd, seats, log, legal_check=True, variant="nanjing", phoenix_led_half=False):
    """Assert every rule on one round; returns a ``Counter`` of what was seen (for rule tests:
    ``minister_ignored_wish`` counts turns on which the Minister left out a wished rank that
    would have bound any other player, §4; ``minister_passed_with_a_play`` the Minister's
    passes while it had a legal play; ``dog_choice`` and ``dog_to_offset2/4`` the Tientsin
    Dog leads with both partners holding cards, §3; these need ``legal_check``;
    ``mah_jong_on_led_phoenix`` the Mah Jong played on a led Phoenix, §2.6 Option)."""
    rules = VARIANTS[variant]
    n = rules.seats
    seen = Counter()
    wuwang = variant == "wuwang"
    first_drawer = int(rnd["first_drawer"])
    hands = [toks(seats[s]["hand14"]) for s in range(n)]
    assert frozenset().union(*hands) == frozenset(ref.ALL_CARDS)  # §2.2 / §7
    assert sum(len(h) for h in hands) == 56
    for s in range(n):
        assert len(hands[s]) == rules.hand_size((s - first_drawer) % n), s  # §2.2, §3
        h8 = toks(seats[s]["hand8"])
        assert len(h8) == rules.seen and h8 <= hands[s]  # §2.2, §3: 6 cards before GT
    pass_pairs = passes_expected(variant)
    gt = [False] * n
    tichu = [False] * n
    played_any = [False] * n
    given = {}
    dealt = False  # the rest of the cards dealt (no more Grand Tichu)
    shown = not wuwang  # Wu Wang: the Minister's hand laid face up after passing (§4)
    piles = [set() for _ in range(n)]
    trick, top, top_cards, top_seat, phoenix_on = set(), None, None, None, None
    passed = set()
    wish = None
    out = []
    expect = None  # who must act next on a regular turn
    lead = None  # True when the next regular action is a lead
    last_actor = None
    end = None
    dragon_pending = None
    mah_jong_holder = None
    transfers = []  # Tientsin: (giver, cards, receiver) of the tricks handed over at the end
    hand_to = None
    rows = [tuple(int(v) for v in row) for row in log]
    for i, (ev, seat, mask, code, extra) in enumerate(rows):
        cs = toks(mask)
        ctx = f"event {i} {ev} seat {seat} {sorted(cs)}"
        if ev == records.EV_DEAL14:
            dealt = True
        elif ev == records.EV_GRAND_TICHU:
            assert not dealt, ctx  # §2.2: after the first 8 (§3: 6) cards, before the rest
            assert not (wuwang and seat in (KING, MINISTER)), ctx  # §4
            assert not played_any[seat] and not tichu[seat], ctx
            gt[seat] = True
        elif ev == records.EV_TICHU:
            assert not gt[seat] and not played_any[seat] and not tichu[seat], ctx  # §2.2, §2.3
            tichu[seat] = True
        elif ev == records.EV_GIVE:
            assert len(cs) == 1 and cs <= hands[seat], ctx  # §2.4
            assert (seat, extra) in pass_pairs and (seat, extra) not in given, ctx  # §3, §4
            given[(seat, extra)] = cs
            if len(given) == len(pass_pairs):
                for (a, _), c in given.items():
                    hands[a] = hands[a] - c
                for (_, b), c in given.items():
                    hands[b] = hands[b] | c
                for s in range(n):
                    assert hands[s] == toks(seats[s]["hand_passed"]), ctx
                    if "Ma" in hands[s]:
                        mah_jong_holder = s
                expect, lead = mah_jong_holder, True  # §2.8: the Mah Jong's holder leads
        elif ev == records.EV_SHOW:
            assert wuwang and not shown and len(given) == len(pass_pairs), ctx  # §4
            assert seat == MINISTER and cs == hands[MINISTER], ctx
            shown = True
        elif ev in (records.EV_PLAY, records.EV_PASS):
            assert len(given) == len(pass_pairs) and shown, ctx
            want = expect if lead else _next_holder(hands, last_actor)
            assert seat == want, f"{ctx}: expected seat {want}"
            free = wuwang and seat == MINISTER  # §4: the Minister is not bound by the wish
            if legal_check:
                top_now = None if lead else frozenset(top_cards)
                plays, can_pass = ref.legal_plays(
                    hands[seat], top_now, None if free else wish, phoenix_on, phoenix_led_half
                )
                if ev == records.EV_PASS:
                    assert can_pass, ctx
                else:
                    assert cs in plays, f"{ctx}: not legal"
                if free and ev == records.EV_PASS and plays:
                    seen["minister_passed_with_a_play"] += 1
                if free and wish is not None:
                    bound, bound_pass = ref.legal_plays(
                        hands[seat], top_now, wish, phoenix_on, phoenix_led_half
                    )
                    if (ev == records.EV_PASS and not bound_pass) or (
                        ev == records.EV_PLAY and cs not in bound
                    ):
                        seen["minister_ignored_wish"] += 1
            if ev == records.EV_PASS:
                assert not lead, ctx
                passed.add(seat)
                last_actor = seat
        elif ev == records.EV_BOMB:
            assert top is not None and top.kind != "dog" and seat != last_actor, ctx  # §2.9
            assert cs <= hands[seat], ctx
            reading = ref.top_reading(cs)
            assert ref.is_bomb(reading) and ref.beats(reading, top), ctx
        if ev in (records.EV_PLAY, records.EV_BOMB):
            assert cs <= hands[seat], ctx
            if cs == {"Ma"} and top_cards == {"Ph"} and phoenix_on is None:
                assert phoenix_led_half, ctx  # §2.6: the Mah Jong (1) never beats 1½
                seen["mah_jong_on_led_phoenix"] += 1
            hands[seat] = hands[seat] - cs
            played_any[seat] = True
            on = top.rank if (top is not None and top.kind == "single" and cs == {"Ph"}) else None
            if cs == {"Ph"}:
                # §2.6: ½ above the single it is played on (the Mah Jong's 1 too); led (None):
                # 1½, or ½ under the Option
                phoenix_on = None if on is None else int(on)
                top = ref.top_reading(cs, phoenix_on=phoenix_on, phoenix_led_half=phoenix_led_half)
                # the logged code carries that value in half ranks (kernels/combos.py layout)
                assert code & 0xFF == round(2 * top.rank), f"{ctx}: Phoenix code {code:#x}"
            else:
                phoenix_on = None
                top = ref.top_reading(cs)
            top_cards, top_seat = cs, seat
            trick |= cs
            passed = set()
            last_actor = seat
            lead = False
            if wish is not None and ref.has_wished_rank(cs, wish):
                assert rows[i + 1][0] == records.EV_WISH_DONE or (
                    rows[i + 1][0] == records.EV_WISH and rows[i + 2][0] == records.EV_WISH_DONE
                ), ctx
                wish = None
        if ev == records.EV_WISH:
            assert "Ma" in top_cards and top_seat == seat, ctx  # §2.11
            assert code == 0 or 2 <= code <= 14, ctx
            wish = code or None
        elif ev == records.EV_OUT:
            assert not hands[seat], ctx
            out.append(seat)
            assert code == len(out), ctx
        elif ev == records.EV_DOG:
            assert top_cards == {"Dog"} and top_seat == seat, ctx  # §2.10
            holders = [q for q in range(n) if hands[q]]
            if variant == "tientsin":  # §3: a partner of the player's choice who holds cards
                partners = [q for q in ((seat + 2) % n, (seat + 4) % n) if hands[q]]
                if len(partners) == 2:
                    seen["dog_choice"] += 1
                    seen[f"dog_to_offset{(extra - seat) % n}"] += 1
                assert extra in partners if partners else extra == _next_holder(hands, seat), ctx
            else:
                partner = (seat + 2) % n
                want = partner if hands[partner] else _next_holder(hands, partner)
                assert extra == want, ctx
            assert extra in holders, ctx
            piles[seat] |= trick
            trick, top, top_cards, top_seat = set(), None, None, None
            expect, lead = extra, True
        elif ev == records.EV_DRAGON:
            assert top_cards == {"Dr"} and top_seat == seat, ctx  # §2.12
            assert (extra - seat) % 2 == 1, ctx  # an opponent
            dragon_pending = extra
        elif ev == records.EV_TRICK:
            assert seat == top_seat, ctx
            ending = len(out) == n - 1
            if not ending:  # §2.8: every other holder of cards has passed since the last play
                others = {q for q in range(n) if hands[q] and q != top_seat}
                assert others <= passed, ctx
            assert frozenset(trick) == cs and code == pts(cs), ctx
            # §2.13, §3: the round's last trick goes to the player whose going out ended it
            taker = dragon_pending if top_cards == {"Dr"} else (out[-1] if ending else seat)
            assert top_cards != {"Dr"} or dragon_pending is not None, ctx
            assert extra == taker, ctx
            piles[taker] |= trick
            trick, top, top_cards, top_seat, dragon_pending = set(), None, None, None, None
            passed = set()
            if not ending:  # the winner leads, or the next holder after them (§2.8)
                expect = seat if hands[seat] else _next_holder(hands, seat)
                lead = True
        elif ev == records.EV_HAND_TO:
            assert len(out) == n - 1 and set(out) | {seat} == set(range(n)), ctx  # §2.13
            assert cs == hands[seat] and code == pts(cs), ctx
            assert (extra - seat) % 2 == 1, ctx  # to the opposing team
            hand_to = (seat, extra)
        elif ev == records.EV_TRICKS_TO:
            assert variant == "tientsin" and len(out) == n - 1, ctx
            assert cs == frozenset(piles[seat]) and code == pts(cs), ctx
            transfers.append((seat, extra))
        elif ev == records.EV_END:
            end = (code, extra)
    assert end is not None, "no end event"
    # §2.13, §2.14, §3: the end and the score, recomputed
    k = rules.victory
    victory = len(out) >= k and all((q - out[0]) % 2 == 0 for q in out[:k])
    assert bool(rnd["double_victory"]) == victory
    card = [0, 0]
    if victory:
        assert len(out) == k
        card[out[0] % 2] = 100 * k
        assert not transfers and hand_to is None
    else:
        assert len(out) == n - 1 and hand_to is not None
        last = next(q for q in range(n) if q not in out)
        card[(last + 1) % 2] += pts(hands[last])  # hand cards to the opponents
        if variant == "tientsin":
            # §3: the fifth player out's tricks to the first player out, the last player's
            # tricks (and hand) to the opposing team
            fifth = out[-1]
            assert [g for g, _ in transfers] == [fifth, last], transfers
            assert transfers[0][1] == out[0] and (transfers[1][1] - last) % 2 == 1, transfers
            card[out[0] % 2] += pts(piles[fifth])
            card[(last + 1) % 2] += pts(piles[last])
            kept = [s for s in range(n) if s not in (fifth, last)]
        else:  # §2.13: the last player's tricks to the first player out
            card[out[0] % 2] += pts(piles[last])
            kept = [s for s in range(n) if s != last]
        for s in kept:
            card[s % 2] += pts(piles[s])
        assert card[0] + card[1] == 100  # §7
        assert sum(int(seats[s]["card_points"]) for s in range(n)) + pts(hands[last]) == 100
    score = list(card)
    for s in range(n):
        sign = 1 if s == out[0] else -1
        score[s % 2] += sign * (200 * gt[s] + 100 * tichu[s])
    assert list(rnd["card_points"]) == card
    assert list(rnd["score"]) == score == list(end)
    for s in range(n):
        assert seats[s]["points"] == score[s % 2]
        assert bool(seats[s]["grand_tichu"]) == gt[s] and bool(seats[s]["tichu"]) == tichu[s]
        want = out.index(s) + 1 if s in out else (0 if victory else n)
        assert seats[s]["finish"] == want
    seen["victory"] += victory
    return seen
