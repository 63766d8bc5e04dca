"""Independent replay of a Grand Seigneur event log against RULES.md §5 and the reference.

``check_round`` rebuilds the deal, the exchange, every hand and trick from the log alone and
asserts each rule: the deck and the round-robin deal, seating by rank and the dealer, the
forced gift of best cards and the cards given back, who may act when, that every regular play
is a combination of the player's hand beating the top under the reference
(``gs_reference.best_reading``), bombs out of turn, the wish (a player who keeps the wished
rank back must have no legal play with it: brute force over sub-multisets), the Dog (Russian
Option), trick ends, going out, the end when one player holds cards, and the finishing order.
It shares no code with the engine except the card notation and the log's event numbers.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np

from support import gs_reference as ref
from tichusim.cards import seigneur as seigneur_rules
from tichusim.cards.combos import Combo
from tichusim.kernels.seigneur import records


def toks(a, b) -> Counter:
    a = int(np.uint64(np.int64(a)))
    b = int(np.uint64(np.int64(b)))
    text = seigneur_rules.format(a, b)
    return Counter(text.split()) if text else Counter()


def tup(c: Counter) -> tuple:
    return tuple(sorted(c.elements()))


def reading_of(code) -> ref.Combo:
    c = Combo.from_code(int(code))
    kind = {
        "full house": "fullhouse",
        "four-of-a-kind bomb": "bomb4",
        "straight-flush bomb": "bombsf",
    }.get(c.kind, c.kind)
    return ref.Combo(kind, c.length, (c.length, c.rank) if kind == "bombsf" else c.rank)


def _sub_multisets_of_size(hand: Counter, size: int):
    seen = set()
    for combo in combinations(sorted(hand.elements()), size):
        if combo not in seen:
            seen.add(combo)
            yield combo


def fulfilling_play_exists(hand: Counter, top, wish, distinct) -> bool:
    """Whether ``hand`` has a legal play on ``top`` (a running trick) holding the wished rank:
    sub-multisets of the top's size, fours, and one-suit runs (the bombs) are tried."""
    sizes = {4} | ({top.length} if not ref.is_bomb(top) else set())
    for size in sizes:
        for sub in _sub_multisets_of_size(hand, size):
            if ref.has_rank(sub, wish) and ref.best_reading(sub, top, distinct) is not None:
                return True
    for suit in ref.SUITS:  # straight flushes: distinct ranks of one suit
        cards = sorted({c for c in hand if c not in ref.SPECIALS and c[1] == suit})
        for size in range(5, len(cards) + 1):
            for sub in combinations(cards, size):
                if ref.has_rank(sub, wish) and ref.best_reading(sub, top, distinct) is not None:
                    return True
    return False


def seat_of_rank(rank, n, russian_seating):
    """RULES.md §5: the Grand Seigneur in chair 0; the second at his left (Decision), so the
    last sits at his right and plays right after him; Option: the second at his right."""
    if rank == 1:
        return 0
    return rank - 1 if russian_seating else n + 1 - rank


def check_round(rnd, seats, log, *, n, deck, distinct=False, russian_seating=False):
    """``seats`` are the round's seat records by player; ``deck`` "one", "two" or "russian"."""
    rows = [tuple(int(v) for v in row) for row in log]
    player_at = {int(seats[p]["seat"]): p for p in range(n)}
    assert sorted(player_at) == list(range(n))
    before = [int(seats[p]["rank_before"]) for p in range(n)]
    first_round = before[0] == 0
    if not first_round:  # §5: seating follows rank
        assert sorted(before) == list(range(1, n + 1))
        for p in range(n):
            assert seats[p]["seat"] == seat_of_rank(before[p], n, russian_seating)
    dealer = next(s for s in range(n) if before[player_at[s]] == n) if not first_round else n - 1
    assert rnd["dealer"] == player_at[dealer]

    hands: dict[int, Counter] = {}
    leftover = Counter()
    order = []
    i = 0
    while i < len(rows) and rows[i][0] in (records.EV_DEAL, records.EV_LEFTOVER):
        ev, seat, a, b, code, extra = rows[i]
        if ev == records.EV_DEAL:
            hands[seat] = toks(a, b)
            assert extra == player_at[seat] and code == before[player_at[seat]]
            order.append(seat)
        else:
            leftover = toks(a, b)
        i += 1
    # §5: every card of the deck, round-robin from the seat after the dealer; Russian Option:
    # 12 each while the deck lasts, the rest face up out of play
    assert sum(hands.values(), Counter()) + leftover == ref.deck(deck)
    total = sum(ref.deck(deck).values())
    dealt = min(total, 12 * n) if deck == "russian" else total
    for k in range(n):
        s = (dealer + 1 + k) % n
        assert sum(hands[s].values()) == dealt // n + (1 if k < dealt % n else 0)

    # §5: exchange from the second round
    if not first_round:
        levels = 2 if n == 5 else 3
        seat_of = {before[player_at[s]]: s for s in range(n)}
        for j in range(levels):
            ev, seat, a, b, code, extra = rows[i + j]
            k = levels - j
            assert ev == records.EV_GIVE and seat == seat_of[n - j] and extra == seat_of[1 + j]
            gift = toks(a, b)
            want = ref.best_cards(tup(hands[seat]), k, russian=deck == "russian")

            def key(c):
                return c if c in ref.SPECIALS else c[0]

            assert sorted(map(key, gift.elements())) == sorted(map(key, want)) and code == k
            assert gift <= hands[seat]
            hands[seat] -= gift
            hands[extra] += gift
        for j in range(levels):
            ev, seat, a, b, code, extra = rows[i + levels + j]
            k = levels - j
            assert ev == records.EV_GIVE_BACK and seat == seat_of[1 + j] and extra == seat_of[n - j]
            back = toks(a, b)
            assert sum(back.values()) == k == code and back <= hands[seat]
            hands[seat] -= back
            hands[extra] += back
        i += 2 * levels
    else:
        assert all(r[0] not in (records.EV_GIVE, records.EV_GIVE_BACK) for r in rows)

    def next_holder(seat):
        return next((seat + k) % n for k in range(1, n + 1) if hands[(seat + k) % n])

    holder = [s for s in range(n) if hands[s]["Ma"]]
    expect = holder[0] if holder else (dealer + 1) % n  # §2.8; Decision when out of play
    assert rnd["leader"] == player_at[expect]
    lead = True
    top = top_cards = top_seat = None
    trick = Counter()
    passed = set()
    wish = None
    out = []
    last_actor = None
    ended = False
    for j in range(i, len(rows)):
        ev, seat, a, b, code, extra = rows[j]
        cs = toks(a, b)
        ctx = f"event {j} {ev} seat {seat} {tup(cs)}"
        assert not ended, ctx
        if ev in (records.EV_PLAY, records.EV_PASS):
            want = expect if lead else next_holder(last_actor)
            assert seat == want, f"{ctx}: expected seat {want}"
            hand = hands[seat]
            keeps_wish = wish is not None and ref.has_rank(tup(hand), wish)
            if ev == records.EV_PASS:
                assert not lead, ctx
                if keeps_wish:  # §2.11: a pass is allowed only without a fulfilling play
                    assert not fulfilling_play_exists(hand, top, wish, distinct), ctx
                passed.add(seat)
                last_actor = seat
            else:
                assert cs <= hand, ctx
                best = ref.best_reading(tup(cs), None if lead else top, distinct)
                assert best is not None, f"{ctx}: no combination beating {top}"
                assert reading_of(code) == best, ctx
                if keeps_wish and not ref.has_rank(tup(cs), wish):
                    assert not lead, f"{ctx}: leads without the wished rank {wish}"
                    if not ref.is_bomb(best):
                        assert not fulfilling_play_exists(hand, top, wish, distinct), ctx
        elif ev == records.EV_BOMB:  # §2.9: any time after a play or pass, never on the Dog
            assert top is not None and top.kind != "dog" and seat != last_actor, ctx
            assert cs <= hands[seat], ctx
            best = ref.best_reading(tup(cs), top, distinct)
            assert best is not None and ref.is_bomb(best) and reading_of(code) == best, ctx
        if ev in (records.EV_PLAY, records.EV_BOMB):
            hands[seat] -= cs
            top, top_cards, top_seat = reading_of(code), cs, seat
            trick += cs
            passed = set()
            last_actor = seat
            lead = False
            if wish is not None and ref.has_rank(tup(cs), wish):
                nxt = [r[0] for r in rows[j + 1 : j + 3]]
                assert records.EV_WISH_DONE in nxt, ctx
                wish = None
        elif ev == records.EV_WISH:  # §2.11: named by whoever played the Mah Jong
            assert top_cards["Ma"] and top_seat == seat, ctx
            assert code == 0 or 2 <= code <= 14, ctx
            wish = code or None
        elif ev == records.EV_OUT:
            assert not hands[seat] and seat not in out, ctx
            out.append(seat)
            assert code == len(out), ctx
        elif (
            ev == records.EV_DOG
        ):  # Russian Option: the lead to the last-ranked player (the dealer)
            assert deck == "russian" and tup(top_cards) == ("Dog",) and top_seat == seat, ctx
            want = dealer if hands[dealer] else next_holder(dealer)
            assert extra == want, ctx
            trick, top, top_cards, top_seat, passed = Counter(), None, None, None, set()
            expect, lead = extra, True
        elif ev == records.EV_TRICK:  # §2.8: every other holder of cards passed since the last play
            assert seat == top_seat and cs == trick, ctx
            assert {q for q in range(n) if hands[q] and q != top_seat} <= passed, ctx
            trick, top, top_cards, top_seat, passed = Counter(), None, None, None, set()
            expect = seat if hands[seat] else next_holder(seat)
            lead = True
        elif ev == records.EV_END:  # §5: the round ends when one player still holds cards
            holders = [q for q in range(n) if hands[q]]
            assert holders == [seat] and cs == hands[seat] and len(out) == n - 1, ctx
            ended = True
    assert ended, "no end event"
    finish = out + [next(q for q in range(n) if q not in out)]
    for place, s in enumerate(finish, start=1):
        assert seats[player_at[s]]["rank_after"] == place
    assert rnd["first_out"] == player_at[finish[0]] and rnd["last"] == player_at[finish[-1]]
