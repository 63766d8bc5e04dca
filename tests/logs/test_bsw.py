"""Brettspielwelt logs read as records (and written), with the quirks of real logs."""

from pathlib import Path

import pytest

from tichusim.cards import notation as cards
from tichusim.games.record import GameRecord
from tichusim.games.steps import Round
from tichusim.logs import bsw, read_game, read_text, write_game

DATA = Path(__file__).parents[1] / "data" / "bsw"
GAME = DATA / "2417500.tch"


def _scores(game):
    out = []
    for record in game.rounds:
        rounds, _ = Round.from_record(record).tables()
        out.append((int(rounds.score_team0[0]), int(rounds.score_team1[0])))
    return out


def test_cards_read_as_the_log_means_them():
    assert bsw.card("GA") == cards.parse("Aj")
    assert bsw.card("S10") == cards.parse("Ts")
    assert bsw.card("BB") == cards.parse("Jp")  # Bube: the Jack
    assert bsw.card("RD") == cards.parse("Qt")  # Dame: the Queen
    assert bsw.card("Hu") == cards.DOG and bsw.card("Ma") == cards.MAH_JONG
    assert bsw.card("Ph") == cards.PHOENIX and bsw.card("Dr") == cards.DRAGON
    with pytest.raises(ValueError, match="unknown card"):
        bsw.card("X9")


def test_a_real_log_reads_whole():
    read = read_game(GAME)
    assert read.problems == []
    g = read.game
    assert len(g.rounds) == 10 and g.players == ("evi_sea", "1David", "evdokia!!", "Lisaaaaaaa")
    first = g.rounds[0]
    assert first.score == (0, 400) and first.lines[0] > 0
    # the winner's pass when it takes a trick is no pass: no seat passes on its own play
    for record in g.rounds:
        top = -1
        for a in record.actions:
            if a.kind in ("play", "bomb"):
                top = a.seat
            elif a.kind == "pass":
                assert a.seat != top


def _lines():
    return GAME.read_text(encoding="utf-8").splitlines()


def test_quirks_of_real_logs_read_the_same_game():
    """A repeated Grand Tichu line, an empty name, a doubled round header and Latin-1 names
    change nothing of the rounds read."""
    base = _scores(read_game(GAME).game)
    lines = _lines()
    gt = next(i for i, line in enumerate(lines) if line.startswith("Grosses Tichu"))
    lines.insert(gt, lines[gt])  # the same call twice
    lines.insert(0, lines[0])  # a doubled header
    text = "\n".join(lines).replace("(3)Lisaaaaaaa", "(3)").replace("evi_sea", "Jürgen")
    for data in (text.encode("utf-8"), text.encode("latin-1")):
        read = read_text(bsw.decode(data), "x.tch")
        assert read.problems == []
        assert _scores(read.game) == base
        assert read.game.players[0] == "Jürgen" and read.game.players[3] == ""


def test_passed_cards_go_to_the_seats_named_and_lines_after_a_score_are_nothing():
    """A ``gibt`` line names its receivers: listed in another order, the cards still go to
    the seats named; a line between a round's score and the next round is not the round's."""
    base = _scores(read_game(GAME).game)
    lines = _lines()
    i = next(i for i, line in enumerate(lines) if " gibt: " in line)
    head, rest = lines[i].split(" gibt: ")
    parts = [p for p in rest.split(" - ") if p.strip()]
    lines[i] = f"{head} gibt: " + " - ".join(reversed(parts)) + " - "
    score = next(i for i, line in enumerate(lines) if line.startswith("Ergebnis"))
    lines.insert(score + 1, "Stand: 0 - 400")
    read = read_text("\n".join(lines), "x.tch")
    assert read.problems == [] and _scores(read.game) == base


def test_a_game_cut_off_mid_round_keeps_its_whole_rounds():
    lines = _lines()
    starts = [i for i, line in enumerate(lines) if "Gr.Tichukarten" in line]
    cut = "\n".join(lines[: starts[4] + 30])
    read = read_text(cut, "cut.tch")
    assert len(read.game.rounds) == 4
    (problem,) = read.problems
    assert problem.source == "cut.tch" and "cut off" in problem.why


def test_a_broken_round_is_reported_with_its_line_and_the_rest_read():
    lines = _lines()
    starts = [i for i, line in enumerate(lines) if "Gr.Tichukarten" in line]
    lines[starts[2] + 20] = "(1)1David: X9 "
    read = read_text("\n".join(lines), "b.tch")
    assert len(read.game.rounds) == 9
    (problem,) = read.problems
    assert problem.line == starts[2] + 21 and "unknown card 'X9'" in problem.why
    assert str(problem).startswith(f"b.tch:{starts[2] + 21}: ")


def test_not_a_log_is_refused_in_one_line():
    with pytest.raises(ValueError, match="not a game log"):
        read_text("hello\nworld\n", "notes.txt")


def _simulated(strategies, count, seed=3):
    rounds = []
    for key in range(count):
        r = Round(seed=seed, key=key, strategies=strategies)
        r.advance()
        rounds.append(r.record())
    return rounds


def test_our_games_written_as_bsw_logs_read_back_to_the_same_scores(tmp_path):
    """A game tichusim played, written in BSW's format and read back, replays to the same
    scores: the winner's pass when it takes a trick, the wish left out when none is made,
    bombs on a trick every other seat passed, and the tens (Wunsch:10) included."""
    records = _simulated("random", 40)
    for key in range(40, 1000):  # and a round wishing for a ten (Wunsch:10)
        r = Round(seed=3, key=key, strategies="random")
        r.advance()
        record = r.record()
        if any(a.kind == "wish" and a.value == 10 for a in record.actions):
            records.append(record)
            break
    assert any(a.kind == "wish" and a.value == 10 for r in records for a in r.actions)
    game = GameRecord(tuple(records), ("a", "b", "c", "d"))
    path = tmp_path / "ours.tch"
    write_game(game, path)
    read = read_game(path)
    assert read.problems == []
    assert _scores(read.game) == [r.score for r in records]


def test_our_games_as_json_read_back_whole(tmp_path):
    game = GameRecord(tuple(_simulated("expert", 5)), ("a", "b", "c", "d"))
    path = tmp_path / "ours.json"
    write_game(game, path)
    assert read_game(path).game == game


def test_a_game_record_with_a_broken_round_keeps_the_others(tmp_path):
    """A round of a JSON game record that cannot be read is reported by its number; the
    others are read (as a BSW log's)."""
    import json

    game = GameRecord(tuple(_simulated("random", 3)), ("a", "b", "c", "d"))
    doc = json.loads(game.to_json())
    doc["rounds"][1]["deal"][0] = "0: Xx"
    read = read_text(json.dumps(doc), "g.json")
    assert read.game.rounds == (game.rounds[0], game.rounds[2])
    assert read.rounds_at == [(1, 0), (3, 0)]
    (problem,) = read.problems
    assert (problem.source, problem.line, problem.round) == ("g.json", 0, 2)
    assert str(problem).startswith("g.json: round 2: deal: seat 0: unknown card")
    with pytest.raises(ValueError, match="round 2: deal"):
        GameRecord.from_json(json.dumps(doc), "g.json")
