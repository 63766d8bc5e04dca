"""A table's learned models handed to the kernels beside the strategy rows: a learned seat
without its model is refused in one line before any round is played, on every path that plays
rows (batches, stepped decisions, the search's rollouts); a table without a learned seat hands
the kernels no models, and compiles no network."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tichusim
from tichusim import Round
from tichusim.games import game
from tichusim.kernels.tichu import batch, learned
from tichusim.kernels.tichu.records import ROUND, SEAT
from tichusim.kernels.tichu.slots import P_WEIGHTS
from tichusim.kernels.tichu.variants import NANJING


def _learned_rows(g, *, unnamed=(), unknown=()):
    """The ``learned`` strategy's rows at every seat of ``g`` (the package's weights), the
    seats ``unnamed`` naming no weights and ``unknown`` weights no process has read."""
    rows = g.param_rows(g.resolve("learned", g.seats))
    for s in unnamed:
        rows[s, P_WEIGHTS : P_WEIGHTS + 2] = 0
    for s in unknown:
        learned.mark_row(rows[s], "00000000deadbeef")
    return rows


@pytest.mark.parametrize(
    ("unnamed", "unknown", "words"),
    [
        ((0, 1, 2, 3), (), "seat 0 plays the learned policy but its strategy row names no weights"),
        ((2,), (), "seat 2 plays the learned policy but its strategy row names no weights"),
        ((), (1,), "seat 1 plays weights 00000000deadbeef, not loaded in this process"),
    ],
)
def test_a_batch_refuses_a_learned_seat_without_its_model(unnamed, unknown, words):
    """Every learned seat without a model of its own (no weights named, or weights not read
    in this process) is one ``ValueError`` line naming the seat, before any round is played:
    the rounds' records stay as they were."""
    rounds = np.zeros(20, ROUND)
    seats = np.zeros((20, 4), SEAT)
    rows = _learned_rows(game("nanjing"), unnamed=unnamed, unknown=unknown)
    with pytest.raises(ValueError, match=words) as info:
        batch.play_rounds(
            batch.Run(batch.NANJING, 7),
            np.arange(20, dtype=np.int64),
            np.zeros(20, np.int64),
            rows,
            rounds,
            seats,
            1,
        )
    assert "\n" not in str(info.value)
    assert not rounds.view(np.uint8).any() and not seats.view(np.uint8).any()


def test_a_stepped_decision_refuses_a_learned_row_without_its_model():
    """``decide`` from Python (a scripted strategy's answer to a stepped round's decision)
    refuses a learned row naming no weights, as the batch does, instead of answering."""
    g = game("nanjing")
    r = Round(seed=1, key=0, strategies=None, variant="nanjing")
    pick = tichusim.strategy("heuristic")
    r.advance()
    while r.view().decision != "play":
        r.act(pick.decide(r.view(), r.legal()))
        r.advance()
    row = _learned_rows(g, unnamed=(0,))[0]
    with pytest.raises(ValueError, match="names no weights"):
        g.steps.decide(row, r.view(), r.legal())


def test_the_kernels_answer_a_strategy_error_without_the_model():
    """A learned row that reaches the engine without its model (the refusal skipped: the entry
    point called directly with no models) stops its round with a strategy error rather than
    play some answer."""
    g = game("nanjing")
    rows = _learned_rows(g)
    n = 4
    rounds = np.zeros((n, 1), ROUND)
    seats = np.zeros((n, 1, 4), SEAT)
    settings = batch.Run(NANJING, 3, False).settings()
    counts = (np.zeros(n, np.int64), np.zeros(n, np.int64))
    out = (rounds, seats, *counts, np.zeros((0, 5), np.int64))
    args = batch._arguments(settings, np.arange(n), np.zeros(n), rows, None, out)
    batch.BATCH[NANJING](*args, batch.kept_records(), 0, n)
    assert (rounds["error"][:, 0] == 6).all()  # ERR_STRATEGY: "strategy answer"


def test_no_learned_seat_hands_no_models_and_a_learned_table_its_own():
    """``table_models.table``: a table of scripted seats gets ``None`` and its rows as they
    came; a table with learned seats one row per model, as the weights file packs it."""
    from tichusim.kernels.tichu import table_models

    g = game("nanjing")
    rows = g.param_rows(g.resolve("expert", 4))
    same, models = table_models.table(rows)
    assert models is None and same is rows
    mixed = g.param_rows(g.resolve(["learned:pass=expert", "expert"] * 2, 4))
    marked, models = table_models.table(mixed)
    assert models is not None and models.shape[0] == 1 and models.dtype == np.float32
    size = learned.model_size(models[0])
    weights = learned.registered(learned.row_identity(mixed[0]))
    assert weights is not None and size == weights.size
    # bit for bit: the row holds int32 weights seen as float32, some of them NaN patterns
    assert np.array_equal(models[0, :size].view(np.uint32), weights.view(np.uint32))
    assert not models[0, size:].view(np.uint32).any()


_COMPILED = """
import json, sys
from tichusim.games import game
from tichusim.kernels.tichu import learned, policies
g = game("nanjing")
seen = []
for names in sys.argv[1:]:
    names = names.split(",")
    rec = g.records(30, seed=2, strategies=names[0] if len(names) == 1 else names)
    assert (rec.rounds["error"] == 0).all()
    seen.append({
        "choose": len(learned.choose.signatures),
        "learned_play": sorted({str(s[1]) for s in policies._learned.signatures}),
    })
print(json.dumps(seen))
"""


@pytest.mark.slow
def test_a_table_without_a_learned_seat_compiles_no_network(tmp_path):
    """With an empty kernel cache, a table with a learned seat compiles the learned play with
    an array of models only (and types the network, ``learned.choose``); a table of scripted
    seats then adds only the learned play with ``models`` of numba's none type (its network
    pruned: ``learned.choose`` typed no further). One process for both: the second table reuses
    the rules core and the callees that take no models, compiled by the first."""
    env = dict(os.environ, TICHUSIM_CACHE_DIR=str(tmp_path / "cache"), TICHUSIM_KERNEL_PACK="0")
    done = subprocess.run(
        [sys.executable, "-c", _COMPILED, "learned,heuristic,learned,heuristic", "heuristic"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    mixed, scripted = json.loads(done.stdout.strip().splitlines()[-1])
    assert mixed["choose"] >= 1
    assert mixed["learned_play"] == ["array(float32, 2d, C)"]
    assert scripted == {
        "choose": mixed["choose"],
        "learned_play": ["array(float32, 2d, C)", "none"],
    }
