"""Labelled decisions (``kernels/tichu/labels.py``): each label is the score difference of the
round rebuilt independently through ``Round`` with that answer, labelling leaves the rounds
those of the batch engine, and the draws come from the round's own stream."""

import numpy as np
import pytest

from tichusim.games.registry import game
from tichusim.games.simulate import records
from tichusim.games.steps import Round
from tichusim.games.view import View
from tichusim.kernels.errors import ERR_NONE
from tichusim.kernels.outside import D_BOMB, D_PLAY
from tichusim.kernels.tichu import labels, table_models


def _row(g, name):
    return g.param_rows(g.resolve(name, 1))[0]


def _label(variant, keys, *, seed, behaviour, rollout, rate, cap, explore=0.0):
    """The kernel's outputs for rounds ``keys``: ``(columns, scores)``."""
    g = game(variant)
    rows, models = table_models.models_for(*labels.rows(_row(g, behaviour), _row(g, rollout)))
    strategies = (*rows, models)
    settings = np.zeros(1, labels.LABELS)
    settings["seed"] = seed
    settings["label_rate"] = rate
    settings["max_candidates"] = cap
    settings["explore"] = explore
    keys = np.asarray(keys, np.int64)
    firsts = g.first_drawers_of(keys)
    out = labels.outputs(20_000, 400_000)
    scores = np.zeros((len(keys), 2), np.int64)
    own, sc = labels.scratch()
    done, nd, nc, err = labels.LABEL[g.variant_code](
        settings, keys, firsts, strategies, out, scores, own, sc, 0, len(keys)
    )
    assert (done, err) == (len(keys), ERR_NONE)
    names = ("round", "seat", "decision", "public", "private", "start", "masks", "codes")
    cols = {n: a[: nd + 1 if n == "start" else nd] for n, a in zip(names, out, strict=False)}
    cols["masks"], cols["codes"] = out[6][:nc], out[7][:nc]
    cols["values"], cols["chosen"] = out[8][:nc], out[9][:nd]
    return cols, scores


def _rebuilt(variant, seed, cols, d, c, behaviour, rollout):
    """Round ``cols["round"][d]`` stepped from Python: the behaviour's answers up to the
    decision whose records are decision ``d``'s, candidate ``c`` there, the rollout strategy's
    answers after. Returns ``(the seat's team score minus the other's, the behaviour's
    answer at the decision)``."""
    g = game(variant)
    rows = {"behaviour": _row(g, behaviour), "rollout": _row(g, rollout)}
    target = _bytes(cols["public"][d : d + 1]), _bytes(cols["private"][d : d + 1])
    rnd = Round(seed=seed, key=int(cols["round"][d]), strategies=None, variant=variant)
    seat = int(cols["seat"][d])
    mine = None
    reached = False
    while True:
        rnd.advance()
        if rnd.done:
            break
        view, legal = rnd.view(), rnd.legal()
        here = (_bytes(view.public), _bytes(view.private)) == target
        if not reached and rnd.decision in ("play", "bomb") and here:
            reached = True
            assert rnd.to_act == seat
            # the behaviour's answer on copies: the candidate is answered with the seat's
            # stream as it stands at the decision, as the kernel's rollouts start
            copy = View(
                g, view.public.copy(), view.private.copy(), rnd.decision, view.detail, None, tuple
            )
            mine = g.steps.decide(rows["behaviour"], copy, legal)
            m, code = int(cols["masks"][c]), int(cols["codes"][c])
            rnd.act(_play(legal, m, code))
            continue
        rnd.act(g.steps.decide(rows["rollout" if reached else "behaviour"], view, legal))
    assert reached, "the decision's records were never reached"
    rounds, _ = rnd.tables()
    score = rounds[["score_team0", "score_team1"]].to_numpy()[0]
    return int(score[seat % 2] - score[1 - seat % 2]), mine


def _bytes(records):
    """The records' bytes with zeroed padding (a kernel's record copy leaves it undefined)."""
    clean = np.zeros(len(records), records.dtype)
    for name in records.dtype.names:
        clean[name] = records[name]
    return clean.tobytes()


def _play(legal, mask, code):
    """The legal choice of cards ``mask`` played as ``code`` (0: the pass or no bomb)."""
    if mask == 0:
        return None
    return next(p for p in legal if p is not None and (int(p), p.combo.code) == (mask, code))


def _check_labels(variant, seed, cols, decisions, behaviour, rollout):
    """Every candidate of ``decisions`` has the label of its rebuilt round, and the chosen one
    is the behaviour's answer."""
    for d in decisions:
        lo, hi = cols["start"][d], cols["start"][d + 1]
        assert hi - lo >= 2
        for c in range(lo, hi):
            margin, mine = _rebuilt(variant, seed, cols, d, c, behaviour, rollout)
            assert cols["values"][c] == np.float32(margin / 100), (d, c)
        chosen = lo + cols["chosen"][d]
        want = (0, 0) if mine is None else (int(mine), mine.combo.code)
        assert (int(cols["masks"][chosen]), int(cols["codes"][chosen])) == want


def test_labels_are_the_score_differences_of_the_rounds_rebuilt_with_each_answer():
    """Behaviour ``heuristic``, rollouts ``expert`` (different rows, so each must be the one
    used where it is); a capped draw of candidates; a few decisions of a few rounds."""
    cols, _ = _label(
        "nanjing", [0, 1, 2], seed=3, behaviour="heuristic", rollout="expert", rate=0.3, cap=4
    )
    assert len(cols["round"]) >= 6
    assert set(np.unique(cols["decision"])) <= {D_PLAY, D_BOMB}
    assert np.all(np.diff(cols["start"]) <= 4)
    _check_labels("nanjing", 3, cols, [0, 1, len(cols["round"]) - 1], "heuristic", "expert")


def test_a_bomb_window_is_labelled_as_a_rebuilt_round_scores_it():
    cols, _ = _label(
        "nanjing", range(60), seed=5, behaviour="expert", rollout="heuristic", rate=1.0, cap=0
    )
    bombs = np.flatnonzero(cols["decision"] == D_BOMB)
    assert len(bombs) > 0
    _check_labels("nanjing", 5, cols, bombs[:1], "expert", "heuristic")


@pytest.mark.parametrize("rate", [0.0, 0.5])
def test_labelling_leaves_the_rounds_of_the_batch_engine(rate):
    keys = np.arange(40)
    _, scores = _label(
        "nanjing", keys, seed=11, behaviour="expert", rollout="random", rate=rate, cap=8
    )
    batch = records("nanjing", len(keys), seed=11, strategies="expert").rounds["score"]
    assert np.array_equal(scores, batch)


def test_the_data_are_a_function_of_the_round_alone():
    """The same rounds labelled alone or among others, with every candidate or a cap."""
    both, _ = _label(
        "nanjing",
        [4, 5],
        seed=2,
        behaviour="expert",
        rollout="expert",
        rate=0.5,
        cap=3,
        explore=0.2,
    )
    alone, _ = _label(
        "nanjing", [5], seed=2, behaviour="expert", rollout="expert", rate=0.5, cap=3, explore=0.2
    )
    k = int(np.argmax(both["round"] == 5))
    assert np.array_equal(both["public"][k:], alone["public"])
    assert np.array_equal(both["values"][both["start"][k] :], alone["values"])
    assert np.array_equal(both["chosen"][k:], alone["chosen"])


def test_exploring_changes_the_rounds_and_capping_keeps_the_behaviours_answer():
    keys = np.arange(30)
    _, plain = _label(
        "nanjing", keys, seed=9, behaviour="expert", rollout="expert", rate=0.0, cap=2
    )
    cols, explored = _label(
        "nanjing", keys, seed=9, behaviour="expert", rollout="expert", rate=0.5, cap=2, explore=0.5
    )
    assert not np.array_equal(plain, explored)
    assert np.all(np.diff(cols["start"]) == 2)
    assert np.all((cols["chosen"] >= 0) & (cols["chosen"] < 2))


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["tientsin", "wuwang"])
def test_the_other_tables_label_as_rebuilt_rounds_score(variant):
    """The same kernel serves Tientsin (§3) and Wu Wang (§4, positions, the King's row for
    the Minister): rounds as the batch plays them, labels as rebuilt rounds score them."""
    keys = np.arange(20)
    cols, scores = _label(
        variant, keys, seed=4, behaviour="heuristic", rollout="expert", rate=0.3, cap=3
    )
    batch = records(variant, len(keys), seed=4, strategies="heuristic").rounds
    assert np.array_equal(scores, batch["score"])  # Wu Wang: the King's side first
    _check_labels(variant, 4, cols, [0, len(cols["round"]) - 1], "heuristic", "expert")
