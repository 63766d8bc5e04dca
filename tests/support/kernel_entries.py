"""Entry points into the search's and the learned play's kernels that only the tests call,
built from the package's kernels (``kernels/tichu/resample.py``, ``kernels/tichu/rollout.py``,
``kernels/tichu/learned.py``) with its ``njit``: each takes a view or a table as one-element
arrays, as a caller outside the kernels holds them."""

from tichusim.kernels.jit import njit
from tichusim.kernels.tichu.learned import state_bits
from tichusim.kernels.tichu.resample import deal_unseen, told_deal
from tichusim.kernels.tichu.rollout import answered, play_on
from tichusim.kernels.tichu.variants import NANJING, TIENTSIN, WUWANG


@njit(cache=True)
def sample_deal(pubs, mes, hands, pool, state):
    """``deal_unseen`` for the view ``pubs[0]``, ``mes[0]``: ``(state, ok)``."""
    return deal_unseen(pubs[0], mes[0], hands, pool, state)


@njit(cache=True)
def view_state_bits(pubs, mes, decision, words, scaled):
    """``learned.state_bits`` for the view ``pubs[0]``, ``mes[0]``."""
    state_bits(pubs[0], mes[0], decision, words, scaled)


@njit(cache=True)
def sample_told_deal(pubs, mes, hands, pool, state, params):
    """``told_deal`` for the view ``pubs[0]``, ``mes[0]``: ``(state, outcome)``."""
    return told_deal(pubs[0], mes[0], hands, pool, state, params, True)


# A round played on from a state (``rollout.play_on``) with the caller's arrays (one ``WORK``,
# ``PUBLIC`` and ``ROUND`` record each, every seat's hand filled in, the strategies in
# ``work[0].params``, scripted: no learned models): ``(error, team 0 score, team 1 score,
# first out)``.


@njit(cache=True)
def resume_nanjing(work, pubs, privs, rnds, seats, seat, forced, window):
    return play_on(NANJING, work[0], None, pubs[0], privs, rnds[0], seats, seat, forced, window)


@njit(cache=True)
def resume_tientsin(work, pubs, privs, rnds, seats, seat, forced, window):
    return play_on(TIENTSIN, work[0], None, pubs[0], privs, rnds[0], seats, seat, forced, window)


@njit(cache=True)
def resume_wuwang(work, pubs, privs, rnds, seats, seat, forced, window):
    return play_on(WUWANG, work[0], None, pubs[0], privs, rnds[0], seats, seat, forced, window)


RESUME = {NANJING: resume_nanjing, TIENTSIN: resume_tientsin, WUWANG: resume_wuwang}


# A round played on from the state at any decision with its answer given (``rollout.answered``,
# the caller's arrays as ``RESUME``'s, ``at = (seat, decision, detail, window, bomb)``): the
# state is the round's own, so the seats before a passing seat keep the cards they chose.


@njit(cache=True)
def answer_nanjing(work, pubs, privs, rnds, seats, at, answer):
    return answered(NANJING, work[0], None, pubs[0], privs, rnds[0], seats, at, answer, False)


@njit(cache=True)
def answer_tientsin(work, pubs, privs, rnds, seats, at, answer):
    return answered(TIENTSIN, work[0], None, pubs[0], privs, rnds[0], seats, at, answer, False)


@njit(cache=True)
def answer_wuwang(work, pubs, privs, rnds, seats, at, answer):
    return answered(WUWANG, work[0], None, pubs[0], privs, rnds[0], seats, at, answer, False)


ANSWER = {NANJING: answer_nanjing, TIENTSIN: answer_tientsin, WUWANG: answer_wuwang}


def one_strategy_everywhere(work, variant: str, strategy):
    """Lay ``strategy``'s row at every position of the work record ``work`` (a stepped
    round's copy), as a search's rollouts play on from a state: Wu Wang's Minister gets the
    King's (§4). Returns the game."""
    from tichusim.games import registry

    game = registry.game(variant)
    rows = game.param_rows(game.resolve(strategy))
    work[0]["params"][: len(rows)] = rows  # every player the same strategy: rows by position
    if variant == "wuwang":
        work[0]["params"][3] = rows[0]
    return game
