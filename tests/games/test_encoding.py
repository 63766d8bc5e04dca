"""The encoding of a decision (docs/encoding.md, ``tichusim/kernels/tichu/encoding.py``): the
page's table is the kernel's layout; a hand-built position encodes as the page says; the kernel
equals a plain reference (``tests/support/encoding_reference.py``) on views of random rounds
at every team game; it reads nothing but the deciding seat's two records (RULES.md §6); one length
everywhere."""

import re
from pathlib import Path

import numpy as np
import pytest
from support.encoding_reference import reference_row

import tichusim
from tichusim import Round
from tichusim.cards import notation as cards
from tichusim.cards.combos import classify
from tichusim.games import game
from tichusim.games.encoding import N_FEATURES, STATE_SIZE, encode, slot
from tichusim.games.view import View
from tichusim.kernels import combos, outside
from tichusim.kernels.seigneur.view import GS_PRIVATE, GS_PUBLIC
from tichusim.kernels.tichu import encoding
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "encoding.md"
ROW = re.compile(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (.+) \|$", re.M)
ORDER = [name for name, _ in encoding.SLOTS]


def m(text: str) -> int:
    return cards.parse(text)


def code(text: str) -> int:
    combo = classify(text)
    assert combo is not None
    return combo.code


# --- the page is the layout ----------------------------------------------------------------


def test_the_page_table_is_the_kernel_layout():
    rows = [
        (name, int(first), int(width)) for name, first, width, _ in ROW.findall(PAGE.read_text())
    ]
    assert rows == [(name, encoding.OFFSET[name], width) for name, width in encoding.SLOTS]
    last = rows[-1]
    assert last[1] + last[2] == N_FEATURES == encoding.N_FEATURES


def test_the_page_names_the_bounds_of_the_two_parts():
    text = PAGE.read_text()
    assert f"`{STATE_SIZE - 1}` are the **state**" in text
    assert f"Indices `{STATE_SIZE}` to `{N_FEATURES - 1}` are the **candidate**" in text
    assert f"({STATE_SIZE:,})" in text and f"({N_FEATURES:,})" in text
    assert f"fixed length, {N_FEATURES:,}" in text
    assert encoding.OFFSET[encoding.FIRST_CANDIDATE_SLOT] == STATE_SIZE


def test_the_layout_hash_names_version_and_slots():
    assert re.fullmatch(r"[0-9a-f]{16}", encoding.LAYOUT_HASH)
    assert encoding.ENCODING_VERSION >= 1


def test_the_page_example_runs():
    block = re.search(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    assert block is not None
    scope: dict = {}
    exec(block.group(1), scope)
    r, x = scope["r"], scope["x"]
    assert r.decision == "play"
    assert x.shape == (len(r.legal()), N_FEATURES) and x.dtype == np.float32


# --- a hand-built position -----------------------------------------------------------------

HAND = "2j 2s 2p 2t 5j 9t Ph Kj Ks"
PLAYED_BY = {0: "3j 3s 4j 4s Tj Tp", 2: "6j 6s Qj Qs", 3: "Ma 7p 8p Dog Jt Qt At Dr"}


def _position():
    """Nanjing, seat 1 to play: seat 3 out first, seat 2's pair of Queens on top of seat 0's
    Tens, seat 0 passed; seat 0 called Grand Tichu, seat 2 Tichu; a wish for a 9 open."""
    pub = np.zeros(1, PUBLIC)
    p = pub[0]
    p["n_players"] = 4
    p["counts"][:4] = [5, 9, 3, 0]
    p["grand_tichu"][0] = 1
    p["tichu"][2] = 1
    p["has_played"][:4] = 1
    for s, text in PLAYED_BY.items():
        p["played_by"][s] = m(text)
    p["played"] = m(" ".join(PLAYED_BY.values()))
    p["out_order"][:] = -1
    p["out_order"][0] = 3
    p["n_out"] = 1
    p["wish"] = 9
    p["top_code"] = code("Qj Qs")
    p["top_mask"] = m("Qj Qs")
    p["top_seat"] = 2
    p["trick_cards"] = m("Tj Tp Qj Qs")
    p["leader"] = 0
    p["passed"] = 1 << 0
    p["points_taken"][:4] = [10, 0, 25, 35]
    p["lacks"][0] = (1 << 1) | (1 << 9)
    p["lacks"][2] = 1 << 1
    p["tricks"] = 4
    p["bombs"] = 1
    privs = np.zeros(1, PRIVATE)
    me = privs[0]
    me["seat"] = 1
    me["hand"] = m(HAND)
    me["given"][0] = m("7j")
    me["given"][2] = m("3t")
    me["given"][3] = m("Dog")
    me["received"][0] = m("Ks")
    me["received"][2] = m("2t")
    me["received"][3] = m("Ph")
    return pub, privs


CANDIDATES = [(0, 0), (m("2j 2s 2p 2t"), code("2j 2s 2p 2t")), (m("Kj Ks"), code("Kj Ks"))]


@pytest.fixture(scope="module")
def position():
    pub, privs = _position()
    masks = np.array([c for c, _ in CANDIDATES], np.uint64)
    codes = np.array([c for _, c in CANDIDATES], np.int64)
    out = np.full((len(CANDIDATES), N_FEATURES), 7.0, np.float32)  # every entry is written
    encoding.encode_all(pub, privs, outside.D_PLAY, masks, codes, len(CANDIDATES), out)
    return out


def _at(x, name, shape=None):
    part = x[slot(name)]
    return part.reshape(shape) if shape else part


def _hot(width, *on):
    out = np.zeros(width, np.float32)
    out[list(on)] = 1
    return out


def test_position_cards_in_the_card_order_of_the_page(position):
    x = position[0]
    # Jade 2 and 5 at their ranks, Sword from 17, Pagoda from 30, Star from 43, Phoenix 16
    want = [2, 5, 17, 30, 43, 50, 16, 13, 28]
    assert np.array_equal(_at(x, "hand"), _hot(56, *want))
    ranks = _at(x, "hand_ranks")
    assert np.array_equal(np.flatnonzero(ranks), [0, 1, 2, 3, 12, 28, 44, 45, 54])
    played = m(" ".join(PLAYED_BY.values()))
    assert _at(x, "elsewhere").sum() == 56 - 9 - bin(played).count("1")
    assert _at(x, "elsewhere")[14] == 1  # the Ace of Jade is somewhere unseen
    assert _at(x, "elsewhere")[15] == 0  # the Dragon was played
    assert not _at(x, "ally_hand").any() and not _at(x, "exposed").any()


def test_position_seats_relative_to_the_deciding_seat(position):
    x = position[0]
    # seat 1 decides: entry 1 its right-hand opponent (seat 2), 2 its partner (3), 3 seat 0
    counts = _at(x, "counts", (6, 15))
    assert [int(np.flatnonzero(row)[0]) for row in counts[:4]] == [9, 3, 0, 5]
    assert not counts[4:].any()
    assert np.array_equal(_at(x, "grand_tichu"), _hot(6, 3))
    assert np.array_equal(_at(x, "tichu"), _hot(6, 1))
    assert np.array_equal(_at(x, "has_played"), _hot(6, 0, 1, 2, 3))
    assert np.array_equal(_at(x, "out"), _hot(6, 2))
    assert np.array_equal(_at(x, "first_out"), _hot(6, 2))
    assert np.allclose(_at(x, "points_taken"), [0, 0.25, 0.35, 0.10, 0, 0])
    played_by = _at(x, "played_by", (6, 56))
    assert played_by[3].sum() == 6 and played_by[1].sum() == 4 and played_by[2].sum() == 8
    assert played_by[2][1] == 1 and played_by[2][0] == 1  # the Mah Jong and the Dog: seat 3's
    lacks = _at(x, "lacks", (6, 14))
    assert np.array_equal(np.flatnonzero(lacks[3]), [0, 8])  # seat 0: the Mah Jong, the 9s
    assert np.array_equal(np.flatnonzero(lacks[1]), [0])
    assert np.array_equal(_at(x, "passed"), _hot(6, 3))


def test_position_trick_wish_and_table(position):
    x = position[0]
    assert np.array_equal(_at(x, "top_seat"), _hot(6, 1))
    assert np.array_equal(_at(x, "leader"), _hot(6, 3))
    assert np.array_equal(_at(x, "top_kind"), _hot(10, combos.PAIR))
    assert _at(x, "top_length")[0] == pytest.approx(2 / 14)
    assert np.array_equal(_at(x, "top_rank"), _hot(16, 12))
    assert _at(x, "top_half")[0] == 0
    assert np.array_equal(np.flatnonzero(_at(x, "top_cards")), [12, 27])
    assert _at(x, "trick_points")[0] == pytest.approx(0.20)
    assert np.array_equal(_at(x, "wish"), _hot(13, 7))
    assert not _at(x, "wish_free").any()
    assert _at(x, "tricks")[0] == pytest.approx(4 / 16)
    assert _at(x, "bombs")[0] == pytest.approx(1 / 4)
    assert np.array_equal(_at(x, "variant"), _hot(3, 0))
    assert not _at(x, "role").any() and _at(x, "phoenix_led_half")[0] == 0
    assert np.array_equal(_at(x, "decision"), _hot(8, 3))  # play


def test_position_passing(position):
    x = position[0]
    given = _at(x, "given", (5, 17))
    # other seat j at entry j - 1: seat 2 got the 3 (still held), seat 3 the Dog (played),
    # seat 0 the 7 (still held)
    assert [int(np.flatnonzero(row)[0]) for row in given[:3]] == [3, 0, 7]
    assert not given[3:].any()
    assert np.array_equal(_at(x, "given_held"), _hot(5, 0, 2))
    received = _at(x, "received", (5, 17))
    assert [int(np.flatnonzero(row)[0]) for row in received[:3]] == [2, 16, 13]


def test_position_candidates(position):
    passing, bomb, kings = position
    assert np.array_equal(passing[:STATE_SIZE], bomb[:STATE_SIZE])
    assert np.array_equal(passing[:STATE_SIZE], kings[:STATE_SIZE])
    assert np.array_equal(_at(passing, "cand_kind"), _hot(10, 0))
    assert not _at(passing, "cand_cards").any() and not _at(passing, "cand_rank").any()
    assert np.array_equal(_at(passing, "after"), _at(passing, "hand"))
    assert np.array_equal(_at(passing, "after_count"), _hot(15, 9))
    assert np.array_equal(_at(bomb, "cand_kind"), _hot(10, combos.BOMB_FOUR))
    assert _at(bomb, "cand_length")[0] == pytest.approx(4 / 14)
    assert np.array_equal(_at(bomb, "cand_rank"), _hot(16, 2))
    assert np.array_equal(np.flatnonzero(_at(bomb, "cand_cards")), [2, 17, 30, 43])
    assert not _at(bomb, "after_ranks")[:4].any()  # no 2 left
    assert np.array_equal(_at(bomb, "after_count"), _hot(15, 5))
    assert _at(bomb, "cand_wish")[0] == 0
    assert _at(kings, "cand_points")[0] == pytest.approx(0.20)
    assert np.array_equal(_at(kings, "cand_rank"), _hot(16, 13))


def test_one_row_is_a_row_of_the_decision(position):
    pub, privs = _position()
    row = np.full(N_FEATURES, -1.0, np.float32)
    for i, (mask, c) in enumerate(CANDIDATES):
        encoding.encode(pub, privs, outside.D_PLAY, np.uint64(mask), c, row)
        assert np.array_equal(row, position[i])


def test_one_row_kept_per_decision(position):
    """The state part written once, the candidate part rewritten for each candidate."""
    pub, privs = _position()
    row = np.full(N_FEATURES, -1.0, np.float32)
    encoding.encode_state(pub[0], privs[0], outside.D_PLAY, row)
    for i, (mask, c) in enumerate(CANDIDATES):
        encoding.encode_candidate(pub[0], privs[0], np.uint64(mask), c, row)
        assert np.array_equal(row, position[i])


# --- random rounds -------------------------------------------------------------------------


def _views(variant: str, seed: int, key: int, options=None):
    """Each decision of a round every seat of which plays at random from Python: (round,
    view, legal)."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant, options=options)
    pick = tichusim.strategy("random")
    r.advance()
    while not r.done:
        view, legal = r.view(), r.legal()
        yield r, view, legal
        r.act(pick.decide(view, legal))
        r.advance()


def _candidates(view, legal, rng):
    """Some candidates of the decision: a sample of a play or bomb list (the pass kept), else
    the empty one."""
    if view.decision not in ("play", "bomb"):
        return [None]
    if len(legal) <= 6:
        return list(legal)
    return [legal[i] for i in sorted(rng.choice(len(legal), 6, replace=False))]


def _pair(choice):
    return (0, 0) if choice is None else (int(choice), choice.combo.code)


@pytest.mark.parametrize(
    "variant, seeds, options",
    [
        ("nanjing", [(3, 0), (3, 1)], None),
        ("nanjing", [(4, 5)], {"phoenix_led_half": True}),  # the §2.6 Option
        ("tientsin", [(5, 2)], None),
        ("wuwang", [(8, 3)], None),
    ],
)
def test_the_kernel_is_the_reference_on_random_rounds(variant, seeds, options):
    rng = np.random.default_rng(11)
    checked = 0
    for seed, key in seeds:
        for _, view, legal in _views(variant, seed, key, options):
            chosen = _candidates(view, legal, rng)
            got = view.encode(chosen)
            assert got.shape == (len(chosen), N_FEATURES)
            for row, choice in zip(got, chosen, strict=True):
                want = reference_row(view, *_pair(choice), ORDER)
                assert want.shape == (N_FEATURES,)
                if not np.array_equal(row, want):
                    bad = [n for n in ORDER if not np.array_equal(row[slot(n)], want[slot(n)])]
                    pytest.fail(f"{variant} {view!r} {choice!r}: slots {bad} differ")
                checked += 1
    assert checked > 30


def test_only_the_seats_own_records_are_read():
    """The kernel's entries take the deciding seat's record first: records after it (another
    seat's hand, gifts, stream), re-dealt, change nothing."""
    rng = np.random.default_rng(5)
    seen = 0
    for r, view, legal in _views("nanjing", 21, 4):
        if view.decision not in ("play", "bomb"):
            continue
        _, pub, privs = r._kept
        seat = view.seat
        others = [s for s in range(4) if s != seat]
        table = np.concatenate([privs[seat : seat + 1], privs[others]]).copy()
        mine = view.private[0]
        known = int(np.bitwise_or.reduce(mine["given"]))
        hidden = [int(table[i]["hand"]) & ~known for i in range(1, 4)]
        loose = [c for h in hidden for c in cards.cards_of(h)]
        rng.shuffle(loose)
        at = 0
        for i, h in enumerate(hidden, start=1):
            k = bin(h).count("1")
            table[i]["hand"] = (int(table[i]["hand"]) & known) | sum(loose[at : at + k])
            table[i]["received"] = rng.integers(0, 1 << 62, 6).astype(np.uint64)
            table[i]["rng"] = rng.integers(0, 1 << 62)
            at += k
        chosen = [_pair(c) for c in legal]
        masks = np.array([c for c, _ in chosen], np.uint64)
        codes = np.array([c for _, c in chosen], np.int64)
        a = np.zeros((len(chosen), N_FEATURES), np.float32)
        b = np.ones((len(chosen), N_FEATURES), np.float32)
        decision = outside.D_PLAY if view.decision == "play" else outside.D_BOMB
        encoding.encode_all(pub, privs[seat : seat + 1], decision, masks, codes, len(chosen), a)
        encoding.encode_all(pub, table, decision, masks, codes, len(chosen), b)
        assert np.array_equal(a, b)
        assert np.array_equal(a, view.encode(legal))
        seen += 1
    assert seen > 10


def test_one_length_at_every_table_and_decision():
    widths = set()
    for variant, seed in (("nanjing", 1), ("tientsin", 2), ("wuwang", 3)):
        for _, view, legal in _views(variant, seed, 0):
            chosen = list(legal) if view.decision in ("play", "bomb") else [None]
            widths.add(view.encode(chosen).shape[1])
            assert view.encode([]).shape == (0, N_FEATURES)
    assert widths == {N_FEATURES}


# --- the Python face -----------------------------------------------------------------------


def test_candidates_are_checked_against_the_hand():
    pub, privs = _position()
    view = View(game("nanjing"), pub, privs, "play", 1)
    assert view.encode([None, (m("Kj Ks"), code("Kj Ks"))]).shape == (2, N_FEATURES)
    with pytest.raises(ValueError, match="not in the hand"):
        view.encode([(m("Aj"), code("Aj"))])
    with pytest.raises(ValueError, match="do not go together"):
        view.encode([(m("Kj"), 0)])
    with pytest.raises(ValueError, match="a Play, None or"):
        encode(view.public, view.private, outside.D_PLAY, [m("Kj")])


def test_grand_seigneur_views_have_no_encoding():
    view = View(
        game("grand-seigneur", 6), np.zeros(1, GS_PUBLIC), np.zeros(1, GS_PRIVATE), "play", 0
    )
    with pytest.raises(ValueError, match="only the team tables"):
        view.encode([None])
