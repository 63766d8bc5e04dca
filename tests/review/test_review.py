"""The review of a played game (``tichusim.review``, docs/review.md): a known blunder loses
many points and is flagged; a forced decision is not weighed; the same seed gives the same
review; each kind of decision is weighed (Grand Tichu, Tichu at each of its moments, RULES.md
§2.3, the passing §2.4, plays and passes on a turn, bombs out of turn and the windows declined
§2.9, the wish §2.11, the Dragon's gift §2.12); the JSON document and the table keep their
shapes; a player's summary adds up its decisions."""

from __future__ import annotations

import io
import json
import math
from functools import cache
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import tichusim
from tichusim import GameRecord, Round
from tichusim.games.recorded import decisions
from tichusim.review import (
    FLAGS,
    FORMAT,
    Effort,
    Thresholds,
    review_game,
    review_round,
    settings_of,
)
from tichusim.review.candidates import alike
from tichusim.review.result import TABLE_COLUMNS
from tichusim.review.weigh import weigh

ROOT = Path(__file__).resolve().parents[2]
BSW = ROOT / "tests" / "data" / "bsw" / "2417500.tch"
# small enough for the fast tier, large enough that a blunder's interval stands clear of 0
TEST = Effort("test", candidates=3, screen=24, measure=64, agree=None, par=2)


@cache
def _bsw():
    return tichusim.read_game(BSW).game


@cache
def _stepped(seed: int, key: int, deviate: str) -> tichusim.RoundRecord:
    """A round of ``learned`` at every seat, seat 2 answered from Python as learned would,
    except: ``"blunder"``, it calls Tichu before the passing on its hand (a hand learned never
    calls on); ``"before_bomb"``, it bombs at its first chance before its first card and calls
    Tichu right before that bomb (§2.3)."""
    learned = tichusim.strategy("learned")
    r = Round(seed=seed, key=key, strategies=["learned", "learned", None, "learned"])
    while True:
        r.advance()
        if r.done:
            return r.record()
        view, legal = r.view(), r.legal()
        if deviate == "blunder" and r.decision == "tichu" and view.detail == 0:
            r.act(True)
        elif deviate == "before_bomb" and r.decision == "bomb" and not view.has_played[2]:
            r.act(next(p for p in legal if p is not None))
        elif deviate == "before_bomb" and r.decision == "tichu" and view.detail == 3:
            r.act(True)
        else:
            r.act(learned.decide(view, legal))


def test_a_known_blunder_loses_many_points_and_is_flagged():
    """A Tichu called before the passing on a hand that cannot make it (§2.3, §2.14: 100
    points lost when the caller is not out first, and the play it bends) is a blunder."""
    record = _stepped(3, 10, "blunder")  # seat 2: 2p 3t 4j 5s 5t 6t 7j 7p 7t 8s 8t 9p Jj Kj
    result = review_round(record, settings_of(TEST, seed=2), seats=[2], with_par=False)
    call = next(w for w in result.decisions if w.decision == "tichu" and w.detail == 0)
    assert call.chosen == "Tichu" and call.best == "no call"
    assert call.status == "measured"
    assert call.loss.value >= 100 and call.loss.low > 0
    assert call.flag == "blunder"
    assert call.called and call.odds is not None and call.odds.value < 0.5


def test_forced_decisions_are_not_weighed():
    """One legal answer (or every answer alike but for its suits): no rollouts, no loss, not
    counted among the player's decisions."""
    record = _bsw().rounds[0]
    settings = settings_of(TEST)
    forced = [d for d in decisions(record) if len(d.legal) == 1][:3]
    assert forced
    for d in forced:
        w = weigh(d, settings, 0, hand=int(d.view.hand))
        assert w.status == "forced" and w.deals == 0 and w.lost == 0 and not w.weighed
        assert w.chosen == w.best == w.strong


def test_suits_alone_make_no_other_answer():
    from tichusim.cards import notation
    from tichusim.cards.combos import Play

    pair = tichusim.classify("5j 5s")
    a = Play(notation.parse("5j 5s"), pair)
    b = Play(notation.parse("5p 5t"), pair)
    assert alike("play", a, b, notation.parse("5j 5s 5p 5t 9j Kt"))
    flush = notation.parse("5j 5s 5p 5t 6j 7j 8j")  # four of one suit within five ranks
    assert not alike("play", a, b, flush)
    assert not alike("play", a, Play(notation.parse("6j 6s"), pair), 0)


def test_the_same_seed_gives_the_same_review():
    game = GameRecord(_bsw().rounds[:1], _bsw().players)
    first = review_game(game, settings_of(TEST, seed=5), player=1).to_dict()
    again = review_game(game, settings_of(TEST, seed=5), player=1).to_dict()
    other = review_game(game, settings_of(TEST, seed=6), player=1).to_dict()
    for doc in (first, again, other):
        doc.pop("seconds")
        for r in doc["rounds"]:
            r.pop("seconds")
    assert first == again
    assert first != other


@pytest.fixture(scope="module")
def kinds():
    """Every kind of decision weighed: two rounds of the real game (the second with bombs
    out of turn), and a round in which a seat calls Tichu right before a bomb that is its
    first card."""
    settings = settings_of(TEST, seed=2)
    weighed = []
    for i in (0, 2):
        weighed += review_round(_bsw().rounds[i], settings, index=i, with_par=False).decisions
    special = review_round(_stepped(5, 10, "before_bomb"), settings, seats=[2], with_par=False)
    return weighed + list(special.decisions)


@pytest.mark.parametrize(
    "kind",
    [
        "grand_tichu",
        "tichu 0",
        "tichu 1",
        "tichu 2",
        "tichu 3",
        "pass",
        "play",
        "pass on a turn",
        "bomb",
        "declined bomb",
        "wish",
        "dragon",
    ],
)
def test_each_kind_of_decision_is_weighed(kinds, kind):
    def matches(w):
        if kind.startswith("tichu "):
            return w.decision == "tichu" and w.detail == int(kind[-1])
        if kind == "pass on a turn":
            return w.decision == "play" and w.chosen == "pass"
        if kind == "bomb":
            return w.decision == "bomb" and w.chosen != "no bomb"
        if kind == "declined bomb":
            return w.decision == "bomb" and w.chosen == "no bomb"
        return w.decision == kind

    found = [w for w in kinds if matches(w) and w.weighed]
    assert found, f"no {kind} weighed"
    for w in found:
        assert w.status in ("agreed", "best", "measured")
        if w.status != "agreed":
            assert w.deals > 0 and w.candidates >= 2
            assert not math.isnan(w.value.value) and w.value.n > 0
            assert w.loss.value >= 0 or w.status == "measured"
        if w.decision in ("tichu", "grand_tichu"):
            assert w.odds is not None and 0 <= w.odds.value <= 1


@pytest.fixture(scope="module")
def one_round():
    game = GameRecord(_bsw().rounds[:1], _bsw().players, source=str(BSW))
    return review_game(game, settings_of(TEST, seed=3))


def test_the_json_document(one_round):
    doc = json.loads(one_round.to_json())
    assert doc["format"] == FORMAT
    assert doc["settings"]["effort"]["name"] == "test"
    assert doc["settings"]["rollout"] == "learned" and doc["settings"]["version"]
    assert set(doc["settings"]["thresholds"]) == set(FLAGS)
    assert [p["seat"] for p in doc["players"]] == [0, 1, 2, 3]
    player = doc["players"][0]
    assert set(player["loss_per_decision"]) == {"value", "low", "high", "n"}
    (r,) = doc["rounds"]
    assert r["result"] == r["score"][0] - r["score"][1]
    assert len(r["par_playouts"]) == 2 and r["par"]["n"] == 2
    assert r["play"] == pytest.approx(r["result"] - r["par"]["value"], abs=1e-3)
    d = r["decisions"][0]
    assert {"round", "number", "seat", "decision", "chosen", "best", "loss", "flag"} <= set(d)


def test_the_table_and_its_parquet(one_round):
    table = one_round.table()
    assert list(table.columns) == TABLE_COLUMNS
    assert len(table) == len(one_round.decisions)
    assert table["round"].dtype == "int64" and table["loss"].dtype == "float64"
    assert set(table["status"]) <= {"forced", "agreed", "best", "measured", "unweighed"}
    assert (table["player"].iloc[:4] != "").all()
    back = pq.read_table(io.BytesIO(one_round.parquet()))
    assert back.column_names == TABLE_COLUMNS
    about = json.loads(back.schema.metadata[b"tichusim-review"])
    assert about["settings"]["seed"] == 3 and "decisions" not in about["rounds"][0]
    pd.testing.assert_frame_equal(back.to_pandas(), table, check_dtype=False)


def test_a_players_summary_adds_up(one_round):
    for p in one_round.players:
        mine = [w for w in one_round.decisions if w.seat == p.seat]
        weighed = [w for w in mine if w.weighed]
        assert p.decisions == len(weighed)
        assert p.forced == sum(w.status == "forced" for w in mine)
        assert p.lost == pytest.approx(sum(w.lost for w in weighed))
        assert sum(p.flags.values()) == sum(bool(w.flag) for w in weighed)
        assert p.calls == sum(w.called for w in mine)
        first = {r.index: r.first_out for r in one_round.rounds}
        assert p.calls_won == sum(w.called and first[w.round] == p.seat for w in mine)
        assert 0 <= p.calls_expected <= p.calls


def test_thresholds_flag_only_losses_told_from_none():
    t = Thresholds(10, 25, 60)
    assert t.flag(70, 5) == "blunder" and t.flag(30, 1) == "mistake" and t.flag(12, 2)
    assert t.flag(70, -1) == "" and t.flag(5, 1) == ""
    with pytest.raises(ValueError):
        Thresholds(30, 20, 60)


def test_bad_requests_are_one_line_errors():
    game = _bsw()
    with pytest.raises(ValueError, match="no player 'nobody'"):
        review_game(game, settings_of(TEST), player="nobody")
    with pytest.raises(ValueError, match="round: 1..10, not 11"):
        review_game(game, settings_of(TEST), rounds=[10])
    with pytest.raises(ValueError, match="effort"):
        settings_of("fast")


def test_the_dog_is_weighed_at_tientsin():
    """§3: at Tientsin the Dog's player names the partner who leads, a decision weighed as
    any other (a strong player without a network: ``expert``, in the rollouts)."""
    settings = settings_of(TEST, rollout="expert", seed=4)
    for key in range(16):
        r = Round(seed=3, key=key, strategies="expert", variant="tientsin")
        r.advance()
        record = r.record()
        dogs = [d for d in decisions(record) if d.decision == "dog"]
        if dogs:
            break
    else:
        pytest.fail("no Dog's lead in 16 rounds")
    result = review_round(record, settings, seats=[dogs[0].seat], with_par=False)
    (dog,) = [w for w in result.decisions if w.decision == "dog"][:1]
    assert dog.status in ("best", "measured") and dog.candidates == 2 and dog.deals > 0
    assert dog.chosen.startswith("lead to seat")


PLAYERS = ("random", "heuristic", "expert", "learned")
SEATINGS = ((0, 1, 2, 3), (1, 2, 3, 0), (0, 2, 1, 3), (2, 0, 3, 1), (0, 3, 2, 1), (3, 1, 0, 2))


@pytest.mark.slow
def test_the_review_ranks_known_players(tmp_path):
    """Six games of 10 rounds of random, heuristic, expert and learned at one table (the seats
    rotated so each partners each), written as logs and read back, reviewed at the quick
    effort: random loses far more per decision than the others, and learned's loss is small
    but not zero (``benchmarks/bench_review.py --only ranking`` measures the whole order)."""
    from tichusim.stats import mean_ci

    losses: dict[str, list[float]] = {p: [] for p in PLAYERS}
    for g, seating in enumerate(SEATINGS):
        names = tuple(PLAYERS[i] for i in seating)
        rounds = []
        for key in range(10):
            r = Round(seed=77 + g, key=key, strategies=list(names))
            r.advance()
            rounds.append(r.record())
        path = tmp_path / f"game{g}.json"
        tichusim.write_game(GameRecord(tuple(rounds), names), path)
        game = tichusim.read_game(path).game
        for w in review_game(game, settings_of("quick", seed=g)).decisions:
            if w.weighed:
                losses[game.players[w.seat]].append(w.lost)
    est = {p: mean_ci(losses[p]) for p in PLAYERS}
    others = [est[p] for p in PLAYERS[1:]]
    assert est["random"].low > max(e.high for e in others) + 10
    assert all(e.value < 15 for e in others)
    assert est["learned"].low > 0 and est["learned"].value < 10
