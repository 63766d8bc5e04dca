"""A game at a table between a person and bots (``games.tablegame``): each round dealt from the
game's seed, played through the Step API, scored by the engine, the first drawer the previous
round's first out and the game over at the target (RULES.md §2.15); the person's answers replay
the game to the same place; an illegal answer changes nothing; a bot that fails stops the game
alone."""

import pytest

import tichusim
from tichusim.cards import notation as cards
from tichusim.games.agents import Agent
from tichusim.games.steps import IllegalChoice
from tichusim.games.tablegame import TableGame, TableStopped, deal_of

EXPERT = tichusim.strategy("expert")


def _play(game: TableGame, answers: int = 10_000) -> None:
    """The person answers as ``expert`` would, ``answers`` times at most."""
    for _ in range(answers):
        if game.to_act is None:
            return
        game.act(EXPERT.decide(game.view(), game.legal()))


@pytest.mark.parametrize("variant", ["nanjing", "tientsin"])
def test_a_deal_is_the_games_and_the_seeds(variant):
    game = tichusim.games.game(variant)
    for first in range(game.seats):
        deal = deal_of(variant, 5, 3, first)
        deal.check(game)  # sizes by draw order from the first drawer (§2.2, §3)
        assert deal.first_drawer == first
    assert deal_of(variant, 5, 3) == deal_of(variant, 5, 3)
    assert deal_of(variant, 5, 3) != deal_of(variant, 5, 4) != deal_of(variant, 6, 3)


@pytest.mark.parametrize("variant", ["nanjing", "tientsin"])
def test_a_game_is_the_engines_rounds_added_up_to_the_target(variant):
    """§2.15: each round's score is the engine's for its deal and the actions played (the
    record played back, and the same answers given through the Step API); the first drawer
    is the previous round's first out; the game ends once a team reaches the target with the
    totals apart."""
    seats = tichusim.games.game(variant).seats
    strategies = [None] + ["expert"] * (seats - 1)
    game = TableGame(3, strategies, variant=variant, target=400)
    _play(game)
    assert game.over and game.to_act is None and game.error is None
    a = b = 0
    answers = iter(game.answers)
    for i, done in enumerate(game.rounds):
        first = 0 if i == 0 else game.rounds[i - 1].first_out
        assert done.record.deal == deal_of(variant, 3, i, first)
        played = tichusim.Round.from_record(done.record)
        rounds, _ = played.tables()
        assert (rounds.score_team0[0], rounds.score_team1[0]) == done.score
        assert rounds.first_out[0] == done.first_out
        # the same answers through the Step API
        r = tichusim.Round(3, i, strategies, variant=variant, deal=deal_of(variant, 3, i, first))
        while True:
            r.advance()
            if r.done:
                break
            legal = r.legal()
            value = next(answers)
            if isinstance(value, list):
                r.act(tuple(cards.parse(c) for c in value))
            else:
                r.act(legal[value])
        assert tuple(int(x) for x in r.record().score) == done.score
        a, b = a + done.score[0], b + done.score[1]
        assert done.totals == (a, b)
    assert max(a, b) >= 400 and a != b and game.totals == (a, b)
    assert all(max(r.totals) < 400 or r.totals[0] == r.totals[1] for r in game.rounds[:-1])
    assert game.winner == int(b > a)
    assert len(game.record().rounds) == len(game.rounds)


def test_the_answers_replay_the_game_to_where_it_stands():
    game = TableGame(11, [None, "learned", "learned", "learned"], target=300)
    _play(game, 40)
    again = TableGame.from_dict(game.to_dict())
    assert again.to_dict() == game.to_dict()
    assert [r.record for r in again.rounds] == [r.record for r in game.rounds]
    assert again.decision == game.decision and again.view().hand == game.view().hand
    assert again.history() == game.history()
    with pytest.raises(ValueError, match="answer 1"):
        TableGame.from_dict({**game.to_dict(), "answers": [99]})
    with pytest.raises(ValueError, match="unknown key 'x'"):
        TableGame.from_dict({**game.to_dict(), "x": 1})


def test_an_illegal_answer_changes_nothing():
    game = TableGame(2, [None, "expert", "expert", "expert"])
    before = game.to_dict()
    assert game.decision == "grand_tichu"
    for bad in (2, -1, True, "0", None, [0]):
        with pytest.raises(IllegalChoice):
            game.answer(bad)
    game.answer(0)
    game.answer(0)  # no Tichu before the passing
    assert game.decision == "pass"
    hand = cards.format(int(game.view().hand)).split()
    others = [c for c in cards.format(cards.DECK).split() if c not in hand]
    for bad in (hand[:2], [hand[0]] * 3, [hand[0], hand[1], others[0]], ["Zz", "Ma", "Dr"], 0):
        with pytest.raises(IllegalChoice):
            game.answer(bad)
    assert game.to_dict()["answers"] == [*before["answers"], 0, 0]
    game.answer(hand[:3])
    assert game.answers[-1] == hand[:3]


class Failing(Agent):
    """A bot that fails at its first play."""

    base = "expert"

    def play(self, view, legal):
        raise RuntimeError("out of ideas")


def test_a_bot_that_fails_stops_its_game_only():
    game = TableGame(1, [None, Failing(), "expert", "expert"])
    _play(game)
    assert game.error is not None and "out of ideas" in game.error and "\n" not in game.error
    assert game.to_act is None
    with pytest.raises(TableStopped, match="out of ideas"):
        game.answer(0)
    other = TableGame(1, [None, "expert", "expert", "expert"], target=100)
    _play(other)
    assert other.over and other.error is None


def test_tables_it_does_not_seat():
    with pytest.raises(ValueError, match="Wu Wang"):
        TableGame(0, [None, "expert", "expert"], variant="wuwang")
    with pytest.raises(ValueError, match="4 for nanjing"):
        TableGame(0, [None, "expert"])
    with pytest.raises(ValueError, match="target"):
        TableGame(0, [None, "expert", "expert", "expert"], target=0)
