"""The learned passing's training: ``tichusim learn`` with ``decision = "pass"``.

The data (``passdata.label``) first, then an MLP on each candidate's features
(``kernels/tichu/passnet.features``, made by the kernel's own code) trained to the labels'
differences within a hand (the loss ``diff + value_weight * value``: the squared error of
each candidate's value less its hand's mean against the same of the labels, and the plain
squared error, as the play network's training does), Adam, ``[train]``'s settings; a
``validation_share`` of the hands held out. After each epoch the held-out hands give the
figure that matters: the mean label of the candidate the network picks less that of expert's
pass (the first candidate), in points per round (the deals it was labelled on, which the
network never saw). The weights file (``strategies/passnet.py``) is written at the end, and
copied to ``[output] weights`` when given.

torch is imported here (the ``learn`` extra).
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..kernels.tichu import passnet as kernel
from ..strategies import passnet as weights_file
from .config import LearnConfig
from .league import Verdict, ship
from .passdata import label, read_passes

__all__ = ["PassNet", "PassTrained", "learn_pass", "train_pass"]


class PassNet(nn.Module):
    """``q = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3`` on ``n_features`` features
    (``passnet.N_FEATURES``; Wu Wang's ``passnet.N_FEATURES_WUWANG``)."""

    def __init__(self, h1: int, h2: int, n_features: int = kernel.N_FEATURES):
        super().__init__()
        self.l1 = nn.Linear(n_features, h1)
        self.l2 = nn.Linear(h1, h2)
        self.l3 = nn.Linear(h2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.l3(torch.relu(self.l2(torch.relu(self.l1(x))))).squeeze(-1)

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights in the file's layout, ``float32``."""

        def plain(t: torch.Tensor) -> np.ndarray:
            return np.ascontiguousarray(t.detach().cpu().numpy(), np.float32)

        return {
            "w1": plain(self.l1.weight.T),
            "b1": plain(self.l1.bias),
            "w2": plain(self.l2.weight.T),
            "b2": plain(self.l2.bias),
            "w3": plain(self.l3.weight[0]),
            "b3": plain(self.l3.bias),
        }


@dataclass
class PassTrained:
    """What a pass network's learning made: its files and each epoch's held-out figures."""

    files: dict[str, Path]
    epochs: list[dict] = field(default_factory=list)
    verdict: Verdict | None = None  # the league's, when the network was judged


def features(data: dict[str, np.ndarray]) -> np.ndarray:
    """The feature rows (C, F) of every candidate of ``data`` (its table's: Wu Wang's when
    ``data["variant"]`` says so)."""
    owner = np.repeat(np.arange(len(data["hands"])), np.diff(data["start"]))
    if str(data.get("variant", "nanjing")) == "wuwang":
        out = np.zeros((len(owner), kernel.N_FEATURES_WUWANG), np.float32)
        kernel.wuwang_features_of(
            data["hands"][owner],
            data["ministers"][owner],
            data["seats"][owner],
            data["cands"],
            out,
        )
        return out
    out = np.zeros((len(owner), kernel.N_FEATURES), np.float32)
    kernel.features_of(data["hands"][owner], data["cands"], out)
    return out


def _gain(q: np.ndarray, values: np.ndarray, start: np.ndarray, hands: np.ndarray) -> float:
    """Mean over ``hands`` of the label of the best-valued candidate less the first's
    (expert's), in points per round."""
    total = 0.0
    for h in hands:
        lo, hi = start[h], start[h + 1]
        total += values[lo + int(np.argmax(q[lo:hi]))] - values[lo]
    return float(100.0 * total / max(len(hands), 1))


def train_pass(
    data: dict[str, np.ndarray], cfg: LearnConfig, log: Callable[[str], None]
) -> tuple[PassNet, list[dict]]:
    """A pass network trained on ``data`` as ``cfg.train`` says, and each epoch's figures."""
    t = cfg.train
    torch.manual_seed(t.seed)
    torch.set_num_threads(t.threads)
    rng = np.random.default_rng(t.seed)
    x = torch.from_numpy(features(data))
    y = torch.from_numpy(data["values"].astype(np.float32))
    start = data["start"]
    n_hands = len(data["hands"])
    sizes = np.diff(start)
    owner = torch.from_numpy(np.repeat(np.arange(n_hands), sizes))
    order = rng.permutation(n_hands)
    n_val = max(1, int(round(n_hands * t.validation_share)))
    val, fit = np.sort(order[:n_val]), order[n_val:]
    model = PassNet(t.hidden[0], t.hidden[1], x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=t.learning_rate)
    counts = torch.from_numpy(sizes.astype(np.float32))
    y_mean = torch.zeros(n_hands).index_add_(0, owner, y) / counts
    y_centred = y - y_mean[owner]
    epochs = []
    for epoch in range(t.epochs):
        t0 = time.perf_counter()
        perm = rng.permutation(fit)
        losses = []
        model.train()
        for lo in range(0, len(perm), t.batch_size):
            hands = np.sort(perm[lo : lo + t.batch_size])
            rows = torch.from_numpy(
                np.concatenate([np.arange(start[h], start[h + 1]) for h in hands])
            )
            local = torch.from_numpy(np.repeat(np.arange(len(hands)), sizes[hands]))
            q = model(x[rows])
            q_mean = torch.zeros(len(hands)).index_add_(0, local, q) / counts[hands]
            diff = ((q - q_mean[local]) - y_centred[rows]).pow(2).mean()
            value = (q - y[rows]).pow(2).mean()
            loss = diff + t.value_weight * value
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(diff.detach()))
        model.eval()
        with torch.no_grad():
            q_all = model(x).numpy()
        values = data["values"]
        row = {
            "epoch": epoch + 1,
            "train_diff_loss": float(np.mean(losses)),
            "validation_gain": _gain(q_all, values, start, val),
            "train_gain": _gain(q_all, values, start, fit[: len(val)]),
            "oracle_gain": _gain(values, values, start, val),
            "seconds": time.perf_counter() - t0,
        }
        epochs.append(row)
        log(
            f"pass network epoch {epoch + 1}/{t.epochs}: loss {row['train_diff_loss']:.4f}, "
            f"held-out gain over expert's pass {row['validation_gain']:+.2f} points a round "
            f"(the labels' best {row['oracle_gain']:+.2f}), {row['seconds']:.0f} s"
        )
    return model, epochs


def learn_pass(
    cfg: LearnConfig,
    *,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    play: Callable[..., Any] | None = None,
) -> PassTrained:
    """The whole pipeline of a pass network: label, train, export; the file is judged by the
    league (``[league]``, its matches played by ``play``, as ``train.learn``'s) and copied to
    ``[output] weights`` only when it ships. ``log`` takes its notes (``progress`` is the
    play learning's bar, unused here)."""
    log = log or (lambda message: None)
    settings = cfg.pass_settings()
    t0 = time.perf_counter()
    paths = label(
        cfg.out_dir / "data",
        hands=settings.hands,
        deals=settings.deals,
        seed=settings.seed,
        shard_hands=settings.shard_hands,
        variant=settings.variant,
        progress=log,
    )
    label_seconds = time.perf_counter() - t0
    data = read_passes(paths)
    log(f"pass data: {len(data['hands']):,} hands, {len(data['values']):,} candidates")
    t1 = time.perf_counter()
    model, epochs = train_pass(data, cfg, log)
    meta = {
        "decision": "pass",
        "config": cfg.to_json(),
        "hands": int(len(data["hands"])),
        "candidates": int(len(data["values"])),
        "epochs": epochs,
        "label_seconds": round(label_seconds, 1),
        "train_seconds": round(time.perf_counter() - t1, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    out = weights_file.export(model.arrays(), cfg.pass_weights_path, settings.variant, meta)
    files = {"weights": out}
    (cfg.out_dir / "train-pass.json").write_text(json.dumps(meta, indent=1) + "\n")
    trained = PassTrained(files, epochs)
    if cfg.output.weights is not None:
        cfg.check_league()
        assert cfg.league is not None  # ``check_league``: weights are judged
        if play is None:
            raise ValueError("learn: [output] weights needs the league's matches: give play")
        trained.verdict, judged = ship(
            out,
            Path(cfg.output.weights),
            cfg.league,
            settings.variant,
            play,
            decision="pass",
            log=log,
        )
        files.update(judged)
    return trained
