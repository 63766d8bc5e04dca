"""The value call policy's coefficients are a fact of the game: each team game's own,
fitted there (``scripts/fit_expert_calls.py --variant``, ``expert_params``), reach the row a
strategy plays with at that table, and the learned play's own where they are fitted under it
(``--base learned --ship``, ``learned_params``); a strategy's own value of a coefficient still
wins, and a saved strategy rebuilds the same row in every variant."""

import numpy as np
import pytest

from tichusim.games import TEAM_GAMES, game
from tichusim.kernels.tichu import slots
from tichusim.strategies import expert_params, learned_params
from tichusim.strategies.tichu import (
    CALL_FEATURES,
    PARAMS,
    STRATEGIES,
    TICHU_FEATURES,
    build,
    resolve,
)


def _tichu_row(row, first, extra):
    n, k = len(CALL_FEATURES), len(TICHU_FEATURES) - len(CALL_FEATURES)
    return tuple(row[first : first + n]) + tuple(row[extra : extra + k])


def _calls(row):
    """A row's Tichu score before passing (hand, then context), Grand Tichu score, and Tichu
    score after passing."""
    n = len(CALL_FEATURES)
    return (
        _tichu_row(row, slots.TICHU_VALUE, slots.TICHU_EXTRA),
        tuple(row[slots.GT_VALUE : slots.GT_VALUE + n]),
        _tichu_row(row, slots.TICHU_AFTER_VALUE, slots.TICHU_AFTER_EXTRA),
    )


def test_every_team_table_has_its_coefficients():
    for fitted, names in (
        (expert_params.TICHU_VALUE, TICHU_FEATURES),
        (expert_params.TICHU_AFTER, TICHU_FEATURES),
        (expert_params.GT_VALUE, CALL_FEATURES),
    ):
        assert set(fitted) == set(TEAM_GAMES)
        assert all(len(c) == len(names) for c in fitted.values())


@pytest.mark.parametrize("variant", TEAM_GAMES)
def test_expert_plays_with_its_tables_coefficients(variant):
    """The rows the game hands its kernels (``Game.params``, every path: rounds, games,
    transcripts) carry that table's fit."""
    rows = game(variant).params("expert")
    for row in rows:
        tichu, gt, after = _calls(row)
        assert tichu == pytest.approx(expert_params.TICHU_VALUE[variant])
        assert gt == pytest.approx(expert_params.GT_VALUE[variant])
        assert after == pytest.approx(expert_params.TICHU_AFTER[variant])
    assert (rows[0] == STRATEGIES["expert"].param_row(variant)).all()


def test_the_params_defaults_are_nanjings():
    """What ``tichusim strategies`` shows, and a row built for no table."""
    tichu, gt, after = _calls(STRATEGIES["expert"].param_row())
    assert tichu == pytest.approx(expert_params.TICHU_VALUE["nanjing"])
    assert after == pytest.approx(expert_params.TICHU_AFTER["nanjing"])
    assert gt == pytest.approx(expert_params.GT_VALUE["nanjing"])
    assert PARAMS["tichu_value_intercept"].default == expert_params.TICHU_VALUE["nanjing"][0]


def test_tientsin_and_wuwang_play_their_own_fits():
    """Not Nanjing's copied: the two tables were fitted on their own."""
    nanjing = _calls(STRATEGIES["expert"].param_row("nanjing"))
    for variant in ("tientsin", "wuwang"):
        assert _calls(STRATEGIES["expert"].param_row(variant)) != nanjing


@pytest.mark.parametrize("variant", TEAM_GAMES)
def test_a_strategys_own_coefficient_wins_at_every_table(variant):
    mine = build(
        {"base": "expert", "params": {"tichu_value_intercept": -7.5, "gt_value_aces": 2.25}}
    )
    row = game(variant).params(mine)[0]
    tichu, gt, _ = _calls(row)
    assert tichu[0] == -7.5 and gt[1] == 2.25
    # the coefficients it does not name stay the table's
    assert tichu[1:] == pytest.approx(expert_params.TICHU_VALUE[variant][1:])
    assert gt[0] == pytest.approx(expert_params.GT_VALUE[variant][0])


def test_the_old_coefficients_as_an_override_are_nanjings_everywhere():
    """How the measurements compare a table's fit with Nanjing's: the whole row overridden."""
    old = {
        f"tichu_value_{f}": c
        for f, c in zip(TICHU_FEATURES, expert_params.TICHU_VALUE["nanjing"], strict=False)
    }
    old |= {
        f"tichu_after_{f}": c
        for f, c in zip(TICHU_FEATURES, expert_params.TICHU_AFTER["nanjing"], strict=False)
    }
    old |= {
        f"gt_value_{f}": c
        for f, c in zip(CALL_FEATURES, expert_params.GT_VALUE["nanjing"], strict=False)
    }
    s = build({"base": "expert", "params": old, "name": "expert-old"})
    for variant in TEAM_GAMES:
        assert (game(variant).params(s)[0] == STRATEGIES["expert"].param_row("nanjing")).all()


@pytest.mark.parametrize("variant", TEAM_GAMES)
def test_saved_strategies_rebuild_the_same_row_at_every_table(variant):
    """``to_dict`` (a run's config.json) saves overrides, not the table's defaults: the rebuilt
    strategy plays the same row in every game, the game's fit included."""
    for spec in (
        "expert",
        "heuristic",
        {"base": "expert", "pass": "partner-best"},
        {"base": "expert", "params": {"tichu_value_plays": -0.5}},
        {"base": "heuristic", "tichu": "value"},
    ):
        s = resolve(spec, 1, variant=variant)[0]
        again = build(s.to_dict())
        assert again.to_dict() == s.to_dict()
        assert np.array_equal(game(variant).params(again), game(variant).params(s))


def _named_calls(variant, names=("tichu_value", "gt_value")):
    """The coefficients ``expert`` calls by at ``variant``, by parameter name."""
    out = {}
    for prefix, table, features in (
        ("tichu_value", expert_params.TICHU_VALUE, TICHU_FEATURES),
        ("gt_value", expert_params.GT_VALUE, CALL_FEATURES),
    ):
        if prefix in names:
            out |= {f"{prefix}_{f}": c for f, c in zip(features, table[variant], strict=True)}
    return out


def _row_calls(row):
    tichu, gt, _ = _calls(row)
    named = {f"tichu_value_{f}": c for f, c in zip(TICHU_FEATURES, tichu, strict=True)}
    return named | {f"gt_value_{f}": c for f, c in zip(CALL_FEATURES, gt, strict=True)}


def test_the_learned_play_calls_by_its_own_fit_where_there_is_one():
    """Wu Wang's learned calls are fitted under its own play and differ from expert's; every
    strategy playing the learned policy takes them there (the named one, one composed on
    expert), expert keeps its own, and the other tables keep expert's for learned too."""
    assert set(learned_params.CALLS) == {"wuwang"}
    own = learned_params.CALLS["wuwang"]
    assert set(own) == set(_named_calls("wuwang"))
    assert own["tichu_value_intercept"] != _named_calls("wuwang")["tichu_value_intercept"]
    composed = build({"base": "expert", "play": "learned", "name": "expert-learned-play"})
    for s in ("learned", "learned[pass=expert]", composed):
        assert _row_calls(game("wuwang").params(s)[0]) == pytest.approx(own)
    assert _row_calls(game("wuwang").params("expert")[0]) == pytest.approx(_named_calls("wuwang"))
    for variant in ("nanjing", "tientsin"):
        learned_row = game(variant).params("learned")[0]
        assert _row_calls(learned_row) == pytest.approx(_named_calls(variant))


def test_an_override_wins_over_the_learned_plays_own_calls():
    mine = build({"base": "learned", "params": {"gt_value_intercept": -9.0}})
    calls = _row_calls(game("wuwang").params(mine)[0])
    assert calls["gt_value_intercept"] == -9.0
    assert calls["tichu_value_intercept"] == learned_params.CALLS["wuwang"]["tichu_value_intercept"]
    again = build(mine.to_dict())  # a run's config.json: the same row rebuilt
    assert np.array_equal(game("wuwang").params(again), game("wuwang").params(mine))


def test_the_fit_writes_the_learned_calls_table(tmp_path, monkeypatch):
    """``--ship`` rewrites learned_params.py's table: an empty one, then another table's entry
    added beside the first, each read back as written."""
    fit = _fit_script()
    path = tmp_path / "learned_params.py"
    path.write_text('"""doc"""\n\nCALLS: dict[str, dict[str, float]] = {}\n')
    monkeypatch.setattr(fit, "LEARNED_PY", path)
    coefs = {
        "tichu": np.linspace(-1, 1, len(TICHU_FEATURES)),
        "grand_tichu": np.linspace(0, 2, len(CALL_FEATURES)),
    }
    written = {}
    for variant in ("wuwang", "tientsin"):
        namespace = {}
        exec(path.read_text(), namespace)
        monkeypatch.setattr(fit.learned_params, "CALLS", namespace["CALLS"])
        fit.write_learned(variant, coefs)
        written[variant] = fit._named(coefs)
    namespace = {}
    exec(path.read_text(), namespace)
    assert namespace["CALLS"] == written
    assert path.read_text().startswith('"""doc"""')


def _fit_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "fit_expert_calls.py"
    spec = importlib.util.spec_from_file_location("fit_expert_calls", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_wuwang_fit_forces_the_king_alone():
    """Wu Wang's Tichu fit forces an opponent and the King (RULES.md §4: the King also decides
    for the Minister, with the same row): forced, the King calls in every round and the
    Minister deciding after him never does; unforced, neither calls."""
    from tichusim.analysis.gtodds import setup

    fit = _fit_script()
    place = setup("wuwang")
    assert fit.forced_seats("tichu", place) == [1, 0]
    assert fit.forced_seats("grand_tichu", place) == [1]
    assert fit.forced_seats("tichu", setup("tientsin")) == [0]
    me = STRATEGIES["expert"]
    keys = np.arange(300, dtype=np.int64)
    for call, king, minister in ((True, True, False), (False, False, False)):
        king_strategy = fit._forced(me, "tichu", 0, place.game, call)
        rec = place.game.rounds(
            keys,
            seed=5,
            strategies=[king_strategy, me, me],
            first_drawers=np.zeros(len(keys), np.int64),
        )
        assert (rec.rounds["king"] == 0).all()
        assert (rec.seats[:, 0]["tichu"] == king).all()  # player 0, the King
        assert (rec.seats[:, 3]["tichu"] == minister).all()  # the Minister's row


def test_the_fit_of_the_call_after_passing_forces_that_call_alone():
    """``scripts/fit_expert_calls.py``'s plays for the Tichu after passing (RULES.md §2.3):
    forced, the seat never calls before passing and always after it (unless its own Grand
    Tichu); unforced, it calls at neither point. Its plays for the call before passing leave
    the seat its call after passing when it does not call."""
    from tichusim.analysis.gtodds import setup
    from tichusim.kernels.tichu import policies

    fit = _fit_script()
    place = setup("nanjing")
    me = STRATEGIES["expert"]
    keys = np.arange(400, dtype=np.int64)
    for call in (True, False):
        forced = fit._forced(me, "tichu_after", place.seat, place.game, call)
        strategies = [me] * 4
        strategies[place.seat] = forced
        rec = place.game.rounds(keys, seed=5, strategies=strategies)
        seat = rec.seats[:, place.seat]
        free = ~seat["grand_tichu"]
        assert (seat["tichu"][free] == call).all()
        if call:
            assert (seat["tichu_when"][free] == policies.TICHU_AFTER_PASSING).all()
    waiting = fit._forced(me, "tichu", place.seat, place.game, False)
    strategies = [me] * 4
    strategies[place.seat] = waiting
    seat = place.game.rounds(keys, seed=5, strategies=strategies).seats[:, place.seat]
    assert (seat["tichu_when"][seat["tichu"]] == policies.TICHU_AFTER_PASSING).all()
    assert seat["tichu"].any()  # some hands call after passing
