"""Independent replay of an engine event log against RULES.md §2 and the reference generator.

``check_round`` rebuilds every hand, trick and pile from the log alone (plus the dealt hands)
and asserts each rule: who may act when, that every regular play is one of the reference's
legal plays (``reference.legal_plays``, brute force), that bombs out of turn are bombs that
beat the top, the Dog's lead, the wish, trick ends, the Dragon's gift, going out, the end of
the round and the score. It shares no code with the engine except the card notation.
"""

from __future__ import annotations

import numpy as np

import reference as ref
from tichusim import cards
from tichusim.kernels import engine as E

POINTS = {"5": 5, "T": 10, "K": 10}


def toks(mask) -> frozenset:
    m = int(np.uint64(np.int64(mask))) if not isinstance(mask, int) else mask
    return frozenset(cards.format(m).split()) if m else frozenset()


def pts(cs) -> int:
    p = sum(POINTS.get(c[0], 0) for c in cs if c not in ref.SPECIALS)
    return p + (25 if "Dr" in cs else 0) - (25 if "Ph" in cs else 0)


def _next_holder(hands, seat):
    """The next seat after ``seat`` in turn order still holding cards (``seat`` itself last)."""
    return next((seat + k) % 4 for k in range(1, 5) if hands[(seat + k) % 4])


def check_round(rnd, seats, log, legal_check=True):
    n = 4
    hands = [toks(seats[s]["hand14"]) for s in range(n)]
    assert frozenset().union(*hands) == frozenset(ref.ALL_CARDS)  # §2.2 / §7
    assert sum(len(h) for h in hands) == 56
    for s in range(n):
        h8 = toks(seats[s]["hand8"])
        assert len(h8) == 8 and h8 <= hands[s]
    gt = [False] * n
    tichu = [False] * n
    played_any = [False] * n
    given = {}
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
    rows = [tuple(int(v) for v in row) for row in log]
    for i, (ev, seat, mask, code, extra) in enumerate(rows):
        cs = toks(mask)
        ctx = f"event {i} {ev} seat {seat} {sorted(cs)}"
        if ev == E.EV_GRAND_TICHU:
            assert not played_any[seat] and not tichu[seat], ctx
            gt[seat] = True
        elif ev == E.EV_TICHU:
            assert not gt[seat] and not played_any[seat] and not tichu[seat], ctx  # §2.2, §2.3
            tichu[seat] = True
        elif ev == E.EV_GIVE:
            assert len(cs) == 1 and cs <= hands[seat] and extra != seat, ctx  # §2.4
            assert (seat, extra) not in given, ctx
            given[(seat, extra)] = cs
            if len(given) == 12:
                for (a, b), c in given.items():
                    hands[a] = hands[a] - c
                for (a, b), c in given.items():
                    hands[b] = hands[b] | c
                for s in range(n):
                    assert hands[s] == toks(seats[s]["hand_passed"]), ctx
                    if "Ma" in hands[s]:
                        mah_jong_holder = s
                expect, lead = mah_jong_holder, True  # §2.8: the Mah Jong's holder leads
        elif ev in (E.EV_PLAY, E.EV_PASS):
            assert len(given) == 12, ctx
            want = expect if lead else _next_holder(hands, last_actor)
            assert seat == want, f"{ctx}: expected seat {want}"
            if legal_check:
                plays, can_pass = ref.legal_plays(
                    hands[seat], None if lead else frozenset(top_cards), wish, phoenix_on
                )
                if ev == E.EV_PASS:
                    assert can_pass, ctx
                else:
                    assert cs in plays, f"{ctx}: not legal"
            if ev == E.EV_PASS:
                assert not lead, ctx
                passed.add(seat)
                last_actor = seat
        elif ev == E.EV_BOMB:
            assert top is not None and top.kind != "dog" and seat != last_actor, ctx  # §2.9
            assert cs <= hands[seat], ctx
            reading = ref.top_reading(cs)
            assert ref.is_bomb(reading) and ref.beats(reading, top), ctx
        if ev in (E.EV_PLAY, E.EV_BOMB):
            assert cs <= hands[seat], ctx
            hands[seat] = hands[seat] - cs
            played_any[seat] = True
            on = top.rank if (top is not None and top.kind == "single" and cs == {"Ph"}) else None
            if cs == {"Ph"}:
                phoenix_on = None if on is None or on < 2 else int(on)
                top = ref.top_reading(cs, phoenix_on=phoenix_on)
            else:
                phoenix_on = None
                top = ref.top_reading(cs)
            top_cards, top_seat = cs, seat
            trick |= cs
            passed = set()
            last_actor = seat
            lead = False
            if wish is not None and ref.has_wished_rank(cs, wish):
                assert rows[i + 1][0] == E.EV_WISH_DONE or (
                    rows[i + 1][0] == E.EV_WISH and rows[i + 2][0] == E.EV_WISH_DONE
                ), ctx
                wish = None
        if ev == E.EV_WISH:
            assert "Ma" in top_cards and top_seat == seat, ctx  # §2.11
            assert code == 0 or 2 <= code <= 14, ctx
            wish = code or None
        elif ev == E.EV_OUT:
            assert not hands[seat], ctx
            out.append(seat)
            assert code == len(out), ctx
        elif ev == E.EV_DOG:
            assert top_cards == {"Dog"} and top_seat == seat, ctx  # §2.10
            partner = (seat + 2) % n
            holders = [q for q in range(n) if hands[q]]
            want = partner if hands[partner] else _next_holder(hands, partner)
            assert extra == want and want in holders, ctx
            piles[seat] |= trick
            trick, top, top_cards, top_seat = set(), None, None, None
            expect, lead = extra, True
        elif ev == E.EV_DRAGON:
            assert top_cards == {"Dr"} and top_seat == seat, ctx  # §2.12
            assert (extra - seat) % 2 == 1, ctx  # an opponent
            dragon_pending = extra
        elif ev == E.EV_TRICK:
            assert seat == top_seat, ctx
            ending = len(out) == 3
            if not ending:  # §2.8: every other holder of cards has passed since the last play
                others = {q for q in range(n) if hands[q] and q != top_seat}
                assert others <= passed, ctx
            assert frozenset(trick) == cs and code == pts(cs), ctx
            taker = dragon_pending if top_cards == {"Dr"} else (out[2] if ending else seat)
            assert top_cards != {"Dr"} or dragon_pending is not None, ctx
            assert extra == taker, ctx
            piles[taker] |= trick
            trick, top, top_cards, top_seat, dragon_pending = set(), None, None, None, None
            passed = set()
            if not ending:  # the winner leads, or the next holder after them (§2.8)
                expect = seat if hands[seat] else _next_holder(hands, seat)
                lead = True
        elif ev == E.EV_HAND_TO:
            assert len(out) == 3 and set(out) | {seat} == set(range(n)), ctx  # §2.13
            assert cs == hands[seat] and code == pts(cs), ctx
        elif ev == E.EV_END:
            end = (code, extra)
    assert end is not None, "no end event"
    # §2.13, §2.14: the end and the score, recomputed
    dv = len(out) >= 2 and (out[0] + 2) % n == out[1]
    assert bool(rnd["double_victory"]) == dv
    if dv:
        assert len(out) == 2
        card = [0, 0]
        card[out[0] % 2] = 200
    else:
        assert len(out) == 3
        last = next(q for q in range(n) if q not in out)
        card = [0, 0]
        card[(last + 1) % 2] += pts(hands[last])
        piles[out[0]] |= piles[last]
        piles[last] = set()
        for s in range(n):
            card[s % 2] += pts(piles[s])
        assert card[0] + card[1] == 100  # §7
    score = list(card)
    for s in range(n):
        sign = 1 if s == out[0] else -1
        score[s % 2] += sign * (200 * gt[s] + 100 * tichu[s])
    assert list(rnd["card_points"]) == card
    assert list(rnd["score"]) == score == list(end)
    for s in range(n):
        assert seats[s]["points"] == score[s % 2]
        assert bool(seats[s]["grand_tichu"]) == gt[s] and bool(seats[s]["tichu"]) == tichu[s]
        want = out.index(s) + 1 if s in out else (0 if dv else 4)
        assert seats[s]["finish"] == want
