"""The learned play's forward pass (``tichusim/kernels/tichu/learned.py``): its scores are a
plain dense forward pass over ``encoding.encode``'s rows on decisions of random rounds, for
several sizes; it answers the best (the first on a tie), as the engine and ``decide`` do;
whole rounds with a learned player at every seat keep every rule (RULES.md §7) at each team
table, whatever the threads."""

import numba
import numpy as np
import pytest
from support.learned_weights import forward, random_arrays, write_weights

import tichusim
from tichusim import Round
from tichusim.games import game
from tichusim.games.encoding import encode
from tichusim.games.view import CODES
from tichusim.kernels.tichu import learned
from tichusim.strategies.learned import pack


def _decisions(variant: str, seed: int, key: int):
    """The play and bomb decisions with two answers or more of a round played at random from
    Python: (view, legal)."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant)
    pick = tichusim.strategy("random")
    r.advance()
    while not r.done:
        view, legal = r.view(), r.legal()
        if view.decision in ("play", "bomb") and len(legal) > 1:
            yield view, legal
        r.act(pick.decide(view, legal))
        r.advance()


def _kernel(arrays, view, legal, scratch=None):
    """The kernel's scores of ``legal`` (plays, then the pass or no bomb) and its choice."""
    model = pack(arrays)[None]
    if scratch is None:
        scratch = np.zeros(learned.LEARN_FLOATS, np.float32)
    plays = [p for p in legal if p is not None]
    masks = np.array([int(p) for p in plays], np.uint64)
    codes = np.array([p.combo.code for p in plays], np.int64)
    with_none = int(legal[-1] is None)
    out = np.zeros(len(legal), np.float32)
    args = (model, scratch, view.public, view.private, CODES[view.decision], masks, codes)
    learned.scores(*args, len(plays), with_none, out)
    index = learned.choice(*args, len(plays), with_none)
    return out, (len(legal) - 1 if index < 0 else index)


@pytest.mark.parametrize("h1, h2", [(16, 8), (40, 24), (5, 3)])
@pytest.mark.parametrize(
    "variant, seed, key", [("nanjing", 3, 0), ("tientsin", 5, 2), ("wuwang", 8, 3)]
)
def test_scores_are_the_dense_forward_pass(h1, h2, variant, seed, key):
    arrays = random_arrays(h1, h2, seed=h1 + seed)
    seen = 0
    for view, legal in _decisions(variant, seed, key):
        got, index = _kernel(arrays, view, legal)
        x = encode(view.public, view.private, CODES[view.decision], legal)
        want = forward(x, arrays)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
        assert index == int(np.argmax(got))  # the best; on a tie the first
        assert want[index] >= want.max() - 1e-3
        seen += 1
    assert seen >= 20


def test_the_scratch_left_by_another_decision_is_never_read():
    """RULES.md §6: the scratch a work record shares between seats holds the last decision's
    features (another seat's hand among them); every entry read is written first from the
    deciding seat's own records, so what was left there changes nothing."""
    arrays = random_arrays(20, 10, seed=6)
    rng = np.random.default_rng(0)
    for view, legal in _decisions("nanjing", 7, 1):
        clean = _kernel(arrays, view, legal)
        dirty = rng.normal(size=learned.LEARN_FLOATS).astype(np.float32) * 100
        got = _kernel(arrays, view, legal, dirty)
        assert np.array_equal(clean[0], got[0]) and clean[1] == got[1]


def test_the_strategy_answers_as_the_kernel(tmp_path):
    """``strategy(...).decide`` (the engine's policy asked from Python, ``decide.py``) answers
    the kernel's choice, and a decision with one answer never asks the model."""
    path = write_weights(tmp_path / "w.npz", 24, 12, seed=4)
    arrays = random_arrays(24, 12, seed=4)
    player = tichusim.strategy(f"learned[weights={path}]")
    for key in range(2):
        for view, legal in _decisions("nanjing", 11, key):
            _, index = _kernel(arrays, view, legal)
            assert player.decide(view, legal) == legal[index]
    none = np.zeros(0, np.uint64)
    one = learned.choice(
        np.zeros((1, learned.HEADER), np.float32),  # no model at all: never read
        np.zeros(learned.LEARN_FLOATS, np.float32),
        *next(_public_private()),
        CODES["bomb"],
        none,
        np.zeros(0, np.int64),
        0,
        1,
    )
    assert one == -1


def _public_private():
    for view, _ in _decisions("nanjing", 3, 0):
        yield view.public, view.private


@pytest.mark.parametrize("variant, n", [("nanjing", 300), ("tientsin", 200), ("wuwang", 300)])
def test_learned_rounds_keep_every_rule(tmp_path, variant, n):
    """RULES.md §7: the engine's checks after every action, four (six) learned seats."""
    path = write_weights(tmp_path / "w.npz", 16, 8, seed=7)
    rec = game(variant).records(n, seed=3, strategies=f"learned[weights={path}]", check=True)
    assert (rec.rounds["error"] == 0).all()
    assert rec.strategies[0].play == "learned"


def test_same_bytes_whatever_the_threads(tmp_path):
    path = write_weights(tmp_path / "w.npz", 16, 8, seed=2)
    g = game("nanjing")
    text = f"learned[weights={path}]"
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = g.records(400, seed=5, strategies=text)
    finally:
        numba.set_num_threads(before)
    many = g.records(400, seed=5, strategies=text)
    assert one.rounds.tobytes() == many.rounds.tobytes()
    assert one.seats.tobytes() == many.seats.tobytes()


def test_two_weights_at_one_table_play_each_their_own(tmp_path):
    """Two files at one table (``MAX_MODELS``): each seat plays its own model, and a seat's
    answers do not depend on what the other seats play with."""
    a = write_weights(tmp_path / "a.npz", 16, 8, seed=1)
    b = write_weights(tmp_path / "b.npz", 12, 6, seed=2)
    g = game("nanjing")
    mixed = g.records(
        200, seed=9, strategies=[f"learned[weights={a}]", f"learned[weights={b}]"] * 2
    )
    same_a = g.records(200, seed=9, strategies=f"learned[weights={a}]")
    same_b = g.records(200, seed=9, strategies=f"learned[weights={b}]")
    assert (mixed.rounds["error"] == 0).all()
    assert mixed.rounds.tobytes() not in (same_a.rounds.tobytes(), same_b.rounds.tobytes())
    c = write_weights(tmp_path / "c.npz", 8, 4, seed=3)
    with pytest.raises(ValueError, match="at most 2"):
        g.records(10, seed=9, strategies=[f"learned[weights={p}]" for p in (a, b, c, a)])


def test_the_records_keep_the_forward_pass_on_cache_lines(tmp_path):
    """Every record the engine, ``decide``, the rollouts and the labelling play with holds
    the scratch on 64-byte lines, so does every row of a table's models, and a model of
    hidden sizes in sixteens has each row of w1 and w2 on a line (``learned.py``: the sums
    read and write whole lines)."""
    from tichusim.kernels.tichu import batch, decide, labels, rollout, table_models

    kept = batch.kept_records()
    records = [kept[0], batch.copy_kept(kept)[0], decide.scratch()]
    records += [rollout.scratch()[0], labels.scratch()[0][0]]
    for record in records:
        assert record["learn"].ctypes.data % learned.LINE == 0
    g = game("nanjing")
    paths = [write_weights(tmp_path / f"{k}.npz", 16, 8 + k, seed=k) for k in (1, 2)]
    rows = g.param_rows(g.resolve([f"learned[weights={p},pass=expert]" for p in paths] * 2, 4))
    _, models = table_models.table(rows)
    assert models is not None and models.shape[0] == 2
    for row in models:
        assert row.ctypes.data % learned.LINE == 0
    for h1, h2 in [(64, 32), (48, 16), (16, 16)]:
        b1, w2, b2, *_ = learned.offsets(h1, h2)
        for start in (learned.W1, learned.W1 + h1, b1, w2, w2 + h2, b2):
            assert start % learned.LINE_FLOATS == 0
