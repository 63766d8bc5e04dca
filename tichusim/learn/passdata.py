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

At Wu Wang (``variant="wuwang"``, RULES.md §4) hand ``h`` is the King's when ``h % 3`` is 0,
else the opponent's after the King (1) or before him (2: position 3); its candidates are Wu
Wang's (two cards each, ``passnet.wuwang_structured``). The King sees the Minister's hand,
dealt from the round's stream (the same for every candidate of a deal), and his network reads
it, so each of a King's deals is a group of its own (its Minister's hand beside it) labelled
by that one deal's margin; an opponent's hand is one group, its deals' mean, as above. Every
player plays ``learned`` with ``expert``'s passing and Wu Wang's play network; the margin is
the seat's side's score less the other side's (the King's side: the King and the Minister).

``label`` writes ``passes-NNNNN.npz`` shards of ``shard_hands`` hands into a directory
(``hands`` (G,) uint64 one per group, ``start`` (G + 1,), ``cands`` (C, 3) uint64 in the
engine's pass slots (right/partner/left at Nanjing), ``values`` (C,) float32, ``expert`` (G,)
the index of expert's pass; Wu Wang's also ``ministers`` (G,) and ``seats`` (G,) the
positions); a shard already written is kept (checked against the settings), so a stopped run
goes on where it stopped.
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
from ..kernels.tichu.variants import NANJING, WUWANG, wuwang_player
from ..kernels.tichu.view import PRIVATE, PUBLIC
from ..strategies.tichu import resolve

if TYPE_CHECKING:
    from ..games.team import TeamGame

__all__ = ["BEHAVIOUR", "candidates", "deal_hand", "label", "read_passes", "wuwang_seat"]

BEHAVIOUR = "learned[pass=expert]"  # every seat's strategy in the labels
_DECK = cards_of(DECK)  # the 56 cards' one-bit masks


def deal_hand(seed: int, h: int) -> int:
    """Hand ``h`` of the data set ``seed``: 14 cards of the 56 drawn uniformly."""
    picked = np.random.default_rng((seed, h)).choice(len(_DECK), 14, replace=False)
    return int(sum(int(_DECK[i]) for i in picked))


WUWANG_SEATS = (0, 1, 3)  # the positions of Wu Wang's labelled hands, by ``h % 3`` (§4)


def wuwang_seat(h: int) -> int:
    """The position of Wu Wang's hand ``h``: the King (0), the opponent after him (1) or
    before him (3)."""
    return WUWANG_SEATS[h % 3]


def _fixed_ranks(p: np.ndarray) -> np.ndarray:
    """The fixed deal's ``fixed_ranks`` making the seat give the pass ``p`` (its slots: right
    opponent, partner, left opponent at Nanjing; a zero slot gives nothing):
    ``records.FIX_BEFORE_PASSING``, each card as its index + 1, 6 bits per receiver
    (``pass-advice``'s)."""
    out = np.zeros(15, np.int64)
    out[records.FIX_MODE] = records.FIX_BEFORE_PASSING
    out[records.FIX_RECEIVED] = sum(
        int(b).bit_length() << (6 * j) for j, b in enumerate(p) if int(b) != 0
    )
    return out


def candidates(
    row: np.ndarray, hand: int, variant: str = "nanjing", seat: int = 0, minister: int = 0
) -> np.ndarray:
    """The learned passing's candidates (n, 3) for ``hand`` at seat ``seat`` (Wu Wang: a
    position, 0, 1 or 3; the King sees ``minister``) of the table ``variant`` where nobody has
    called, under the strategy row ``row`` (its passing parameters)."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0]["n_players"] = 4
    pub[0]["variant"] = WUWANG if variant == "wuwang" else NANJING
    pub[0]["counts"][:4] = 14
    me[0]["seat"] = seat
    me[0]["hand"] = np.uint64(hand)
    me[0]["ally_hand"] = np.uint64(minister if variant == "wuwang" and seat == 0 else 0)
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
    variant: str = "nanjing",
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Label ``hands`` hands (``deals`` deals each) of the table ``variant`` (``"nanjing"``
    or ``"wuwang"``) into ``out_dir``'s shards; returns them."""
    if variant not in ("nanjing", "wuwang"):
        raise ValueError(f"the learned passing is labelled at nanjing or wuwang, not {variant!r}")
    wuwang = variant == "wuwang"
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    team_game = cast("TeamGame", game(variant))
    n_players = team_game.players
    table = resolve(BEHAVIOUR, n_players)
    row = table[0].param_row(variant)
    # the labelled seat never calls Grand Tichu (it has seen 14 cards); at Wu Wang, where
    # the King is player 0, the player at each labelled position
    params = {}
    for h in WUWANG_SEATS if wuwang else (0,):
        player = int(wuwang_player(0, h)) if wuwang else h
        mine = list(table)
        mine[player] = dataclasses.replace(table[player], grand_tichu="never")
        params[h] = seated(team_game, mine)[1]
    base = team_game.batch_settings(seed)
    rounds_out = np.zeros(deals, ROUND)
    seats_out = np.zeros((deals, 4), SEAT)
    paths = []
    for first in range(0, hands, shard_hands):
        path = out_dir / f"passes-{first // shard_hands:05d}.npz"
        paths.append(path)
        if path.exists():
            with np.load(path, allow_pickle=False) as z:
                made = (
                    int(z["deals"]),
                    int(z["seed"]),
                    int(z["n_hands"]) if "n_hands" in z else len(z["hands"]),
                    str(z["variant"]) if "variant" in z else "nanjing",
                )
            want = (deals, seed, min(hands, first + shard_hands) - first, variant)
            if made != want:
                raise ValueError(
                    f"{path}: labelled with deals, seed, hands, variant {made}, not {want}: "
                    "give the data another folder"
                )
            continue
        t0 = time.perf_counter()
        last = min(hands, first + shard_hands)
        groups: list[tuple[int, int, int, np.ndarray, np.ndarray]] = []
        for i in range(first, last):
            hand = deal_hand(seed, i)
            h = wuwang_seat(i) if wuwang else 0  # the labelled seat (a position at Wu Wang)
            cands = candidates(row, hand, variant, h)  # no Minister: the King's ignore it
            keys = np.arange(i * deals, (i + 1) * deals, dtype=np.int64)
            # the first drawer rotates with the key; at Wu Wang the King is player 0, at
            # position 0 (every player plays the same strategy)
            firsts = np.zeros(deals, np.int64) if wuwang else keys % 4
            margins = np.empty((len(cands), deals), np.float64)
            ministers = np.zeros(deals, np.uint64)
            for c, p in enumerate(cands):
                run = base._replace(
                    fixed_seat=h, fixed_cards=np.uint64(hand), fixed_ranks=_fixed_ranks(p)
                )
                # one chunk on this thread: the rounds are few and the call's set-up counts
                batch.play_rounds(run, keys, firsts, params[h], rounds_out, seats_out, 1)
                if np.any(rounds_out["error"] != 0):
                    raise RuntimeError(f"hand {i}: a labelling round failed")
                held = seats_out[:, h]
                if np.any(held["hand14"] != hand) or np.any(held["given"][:, :3] != p):
                    raise RuntimeError(f"hand {i}: the seat did not hold the hand or give the pass")
                margins[c] = seats_out[:, h]["points"] - seats_out[:, (h + 1) % 4]["points"]
                if c == 0:
                    ministers[:] = seats_out[:, 2]["hand14"]
                elif wuwang and np.any(seats_out[:, 2]["hand14"] != ministers):
                    raise RuntimeError(f"hand {i}: the Minister's hand moved with the pass")
            if wuwang and h == 0:  # each deal its own group: the King saw its Minister
                for d in range(deals):
                    groups.append((hand, int(ministers[d]), h, cands, margins[:, d] / 100.0))
            else:
                groups.append((hand, 0, h, cands, margins.mean(axis=1) / 100.0))
        tmp = path.with_name(path.name + ".tmp.npz")
        starts = np.concatenate([[0], np.cumsum([len(g[3]) for g in groups])])
        np.savez(
            tmp,
            hands=np.array([g[0] for g in groups], np.uint64),
            ministers=np.array([g[1] for g in groups], np.uint64),
            seats=np.array([g[2] for g in groups], np.int64),
            start=starts.astype(np.int64),
            cands=np.concatenate([g[3] for g in groups]),
            values=np.concatenate([g[4] for g in groups]).astype(np.float32),
            # the first candidate is expert's pass (LEARNED_PROBES)
            expert=np.zeros(len(groups), np.int64),
            deals=np.array(deals),
            seed=np.array(seed),
            n_hands=np.array(last - first),
            variant=np.array(variant),
        )
        tmp.replace(path)
        if progress is not None:
            progress(f"{path.name}: {last - first} hands in {time.perf_counter() - t0:.0f} s")
    return paths


def read_passes(paths: Iterable[str | Path]) -> dict[str, np.ndarray]:
    """The shards ``paths`` as one set of arrays (``start`` offsets running through)."""
    hands, starts, cands, values = [], [np.zeros(1, np.int64)], [], []
    ministers, seats, variants = [], [], set()
    at = 0
    for path in paths:
        with np.load(path, allow_pickle=False) as z:
            hands.append(z["hands"])
            starts.append(z["start"][1:] + at)
            cands.append(z["cands"])
            values.append(z["values"])
            n = len(z["hands"])
            ministers.append(z["ministers"] if "ministers" in z else np.zeros(n, np.uint64))
            seats.append(z["seats"] if "seats" in z else np.zeros(n, np.int64))
            variants.add(str(z["variant"]) if "variant" in z else "nanjing")
            at += len(z["values"])
    if len(variants) > 1:
        raise ValueError(f"pass data of several tables: {', '.join(sorted(variants))}")
    return {
        "hands": np.concatenate(hands),
        "start": np.concatenate(starts),
        "cands": np.concatenate(cands),
        "values": np.concatenate(values),
        "ministers": np.concatenate(ministers),
        "seats": np.concatenate(seats),
        "variant": np.array(variants.pop() if variants else "nanjing"),
    }
