"""Real play and bomb decisions for the learning tests: reached by stepping random rounds
(``Round``, every seat picking at random from Python), kept as ``Decisions``; ``labelled``
gives them labels a network can learn."""

import numpy as np

import tichusim
from tichusim import Round
from tichusim.kernels import outside
from tichusim.kernels.tichu import encoding
from tichusim.kernels.tichu.encoding import N_FEATURES
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.learn.decisions import Decisions

CODES = {"play": outside.D_PLAY, "bomb": outside.D_BOMB}


def _pair(choice):
    return (0, 0) if choice is None else (int(choice), choice.combo.code)


def real_decisions(rounds: int, seed: int = 0, variant: str = "nanjing") -> Decisions:
    """The play and bomb decisions with two candidates or more of ``rounds`` random rounds;
    the behaviour's answer is the random pick."""
    pick = tichusim.strategy("random")
    pubs, privs, codes_, lists, chosen, round_, seat = [], [], [], [], [], [], []
    for key in range(rounds):
        r = Round(seed=seed, key=key, strategies=None, variant=variant)
        r.advance()
        while not r.done:
            view, legal = r.view(), r.legal()
            answer = pick.decide(view, legal)
            if view.decision in CODES and len(legal) >= 2:
                pubs.append(view.public[0])
                privs.append(view.private[0])
                codes_.append(CODES[view.decision])
                lists.append([_pair(c) for c in legal])
                chosen.append(next(i for i, c in enumerate(legal) if c is answer))
                round_.append(key)
                seat.append(view.seat)
            r.act(answer)
            r.advance()
    start = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(c) for c in lists], out=start[1:])
    flat = [p for c in lists for p in c]
    return Decisions(
        public=np.array(pubs, PUBLIC),
        private=np.array(privs, PRIVATE),
        decision=np.array(codes_, np.int64),
        start=start,
        masks=np.array([m for m, _ in flat], np.uint64),
        codes=np.array([c for _, c in flat], np.int64),
        values=np.zeros(len(flat), np.float32),
        chosen=np.array(chosen, np.int64),
        round=np.array(round_, np.int64),
        seat=np.array(seat, np.int64),
    )


def labelled(rounds=12, seed=7):
    """Real decisions; a candidate's label is a fixed linear function of its features, the
    candidate part weighing most (so the best candidate differs between decisions)."""
    d = real_decisions(rounds, seed=seed)
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.02, N_FEATURES)
    w[encoding.STATE_SIZE :] *= 10
    x = np.empty((len(d.masks), N_FEATURES), np.float32)
    for k in range(len(d.decision)):
        lo, hi = d.start[k], d.start[k + 1]
        encoding.encode_all(
            d.public[k : k + 1],
            d.private[k : k + 1],
            d.decision[k],
            d.masks[lo:hi],
            d.codes[lo:hi],
            hi - lo,
            x[lo:hi],
        )
    return d._replace(values=(x @ w).astype(np.float32))
