"""The learned passing's labelled data: each candidate pass of a hand played out, paired.

A hand is 14 cards dealt uniformly (the seat's hand after the Grand Tichu step, no call made:
RULES.md §2.2, §2.4), hand ``h`` of a data set drawn from ``numpy.random.default_rng((seed,
h))``. Its candidates are the learned passing's own (``policies.learned_candidates``, the
same code play runs, on a table where nobody has called). Each candidate is played out on the
same ``deals`` deals (round keys ``h * deals`` onward): the hand's seat gives exactly that
pass (``pass-advice``'s fixed deal, ``records.FIX_BEFORE_PASSING``), the other 42 cards are
dealt from the round's deal stream, which does not depend on the pass, and every later
decision draws from the same random streams, so the candidates are paired deal by deal. Every
seat plays ``learned`` with ``expert``'s passing (the passing the learned player had before a
network chose it), the hand's seat never calling Grand Tichu (it has seen 14 cards). A
candidate's label is the seat's team's mean point margin over the deals (its team's round
score less the other team's, §2.14), over 100.

``label`` writes ``passes-NNNNN.npz`` shards of ``shard_hands`` hands into a directory
(``hands`` (H,) uint64, ``start`` (H + 1,), ``cands`` (C, 3) uint64 right/partner/left,
``values`` (C,) float32, ``expert`` (H,) the index of expert's pass); a shard already written
is kept (checked against the settings), so a stopped run goes on where it stopped.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from ..cards.notation import cards_of
from ..games import game
from ..games.steps import seated
from ..kernels.tichu import batch, passnet, policies, records
from ..kernels.tichu.encoding import DECK
from ..kernels.tichu.records import ROUND, SEAT
from ..kernels.tichu.variants import NANJING
from ..kernels.tichu.view import PRIVATE, PUBLIC
from ..strategies.tichu import resolve

if TYPE_CHECKING:
    from ..games.team import TeamGame

__all__ = ["BEHAVIOUR", "candidates", "deal_hand", "label", "read_passes"]

BEHAVIOUR = "learned[pass=expert]"  # every seat's strategy in the labels
_DECK = cards_of(DECK)  # the 56 cards' one-bit masks


def deal_hand(seed: int, h: int) -> int:
    """Hand ``h`` of the data set ``seed``: 14 cards of the 56 drawn uniformly."""
    picked = np.random.default_rng((seed, h)).choice(len(_DECK), 14, replace=False)
    return int(sum(int(_DECK[i]) for i in picked))


def _fixed_ranks(p: np.ndarray) -> np.ndarray:
    """The fixed deal's ``fixed_ranks`` making the seat give the pass ``p`` (right opponent,
    partner, left opponent): ``records.FIX_BEFORE_PASSING``, each card as its index + 1, 6
    bits per receiver (``pass-advice``'s)."""
    out = np.zeros(15, np.int64)
    out[records.FIX_MODE] = records.FIX_BEFORE_PASSING
    out[records.FIX_RECEIVED] = sum(int(b).bit_length() << (6 * j) for j, b in enumerate(p))
    return out


def candidates(row: np.ndarray, hand: int) -> np.ndarray:
    """The learned passing's candidates (n, 3) for ``hand`` at seat 0 of the 4-player game
    where nobody has called, under the strategy row ``row`` (its passing parameters)."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0]["n_players"] = 4
    pub[0]["variant"] = NANJING
    pub[0]["counts"][:4] = 14
    me[0]["seat"] = 0
    me[0]["hand"] = np.uint64(hand)
    out = np.zeros((passnet.MAX_CANDIDATES, 3), np.uint64)
    n = policies.learned_candidates(np.asarray(row, np.float64), pub[0], me[0], out)
    return out[:n].copy()


def label(
    out_dir: str | Path,
    *,
    hands: int,
    deals: int,
    seed: int,
    shard_hands: int = 500,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Label ``hands`` hands (``deals`` deals each) into ``out_dir``'s shards; returns them."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    table = resolve(BEHAVIOUR, 4)
    table[0] = dataclasses.replace(table[0], grand_tichu="never")  # seat 0 holds the hand
    row = table[0].param_row()
    h = 0
    nanjing = cast("TeamGame", game("nanjing"))
    _, params, _ = seated(nanjing, table)
    base = nanjing.batch_settings(seed)
    rounds_out = np.zeros(deals, ROUND)
    seats_out = np.zeros((deals, 4), SEAT)
    paths = []
    for first in range(0, hands, shard_hands):
        path = out_dir / f"passes-{first // shard_hands:05d}.npz"
        paths.append(path)
        if path.exists():
            with np.load(path, allow_pickle=False) as z:
                made = (int(z["deals"]), int(z["seed"]), len(z["hands"]))
            want = (deals, seed, min(hands, first + shard_hands) - first)
            if made != want:
                raise ValueError(
                    f"{path}: labelled with deals, seed, hands {made}, not {want}: give the "
                    "data another folder"
                )
            continue
        t0 = time.perf_counter()
        last = min(hands, first + shard_hands)
        got_hands, starts, cands_all, values_all, experts = [], [0], [], [], []
        for i in range(first, last):
            hand = deal_hand(seed, i)
            cands = candidates(row, hand)
            keys = np.arange(i * deals, (i + 1) * deals, dtype=np.int64)
            firsts = keys % 4  # the first drawer rotates with the key
            vals = np.empty(len(cands), np.float32)
            for c, p in enumerate(cands):
                run = base._replace(
                    fixed_seat=h, fixed_cards=np.uint64(hand), fixed_ranks=_fixed_ranks(p)
                )
                # one chunk on this thread: the rounds are few and the call's set-up counts
                batch.play_rounds(run, keys, firsts, params, rounds_out, seats_out, 1)
                if np.any(rounds_out["error"] != 0):
                    raise RuntimeError(f"hand {i}: a labelling round failed")
                margin = seats_out[:, h]["points"] - seats_out[:, (h + 1) % 4]["points"]
                vals[c] = margin.mean() / 100.0
            got_hands.append(hand)
            starts.append(starts[-1] + len(cands))
            cands_all.append(cands)
            values_all.append(vals)
            experts.append(0)  # the first candidate is expert's pass (LEARNED_PROBES)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(
            tmp,
            hands=np.array(got_hands, np.uint64),
            start=np.array(starts, np.int64),
            cands=np.concatenate(cands_all),
            values=np.concatenate(values_all),
            expert=np.array(experts, np.int64),
            deals=np.array(deals),
            seed=np.array(seed),
        )
        tmp.replace(path)
        if progress is not None:
            progress(f"{path.name}: {last - first} hands in {time.perf_counter() - t0:.0f} s")
    return paths


def read_passes(paths: Iterable[str | Path]) -> dict[str, np.ndarray]:
    """The shards ``paths`` as one set of arrays (``start`` offsets running through)."""
    hands, starts, cands, values = [], [np.zeros(1, np.int64)], [], []
    at = 0
    for path in paths:
        with np.load(path, allow_pickle=False) as z:
            hands.append(z["hands"])
            starts.append(z["start"][1:] + at)
            cands.append(z["cands"])
            values.append(z["values"])
            at += len(z["values"])
    return {
        "hands": np.concatenate(hands),
        "start": np.concatenate(starts),
        "cands": np.concatenate(cands),
        "values": np.concatenate(values),
    }
