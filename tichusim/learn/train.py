"""Training the value network on labelled decisions, and ``learn``: data, then training.

``train`` fits a ``ValueNet`` (``model.py``) to ``Decisions`` (``decisions.py``). Batches are
encoded on the fly by the kernel's batch encoder (``encoding.encode_decisions``), a batch of
decisions at a time: the state part once per decision, the candidate part per candidate; the
full feature matrix of millions of candidates is never built.

The loss weighs what a player needs, the order of a decision's candidates: the squared error
of each candidate's value less its decision's mean value against its label less the
decision's mean label (the *diff* term), plus ``value_weight`` times the squared error of the
values themselves (the *value* term), both averaged over the batch's candidates. Adam.

The held-out rounds (``validation_share`` of the round indices, a round's decisions all on one
side) are scored after every epoch: both losses, the share of decisions where the network's
pick has the best label (top-1), and the **regret** in points, the best label less the label
of the network's pick, times 100, averaged over decisions; beside it the regret of the
behaviour's own answer (``chosen``) and of a pick at random, the baselines.

Seeded and resumable: torch's generator is seeded once; the order of epoch ``e``'s decisions
is drawn from a numpy generator seeded by (``seed``, ``e``), so the step number is all of the
shuffling's state. A checkpoint (network, optimizer, step, metrics, torch's generator) is
written every ``checkpoint_every`` steps and at each epoch's end; a training started again
goes on from it and ends with the same weights as one never stopped (one thread, one machine:
torch's multi-threaded sums may differ in the last bits).
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..kernels.tichu.encoding import CANDIDATE_SIZE, LAYOUT_HASH, STATE_SIZE, encode_decisions
from ..progress import Progress
from ..strategies.learned import identity
from .config import LearnConfig, TrainSettings
from .decisions import Decisions, count_rounds, read_decisions
from .league import Verdict, ship
from .model import ValueNet, export

__all__ = [
    "Batch",
    "CheckpointError",
    "Trained",
    "candidate_index",
    "encode_batch",
    "evaluate",
    "learn",
    "losses",
    "metrics",
    "split",
    "train",
    "write_metrics",
]

CHECKPOINT = "checkpoint.pt"
EVAL_BATCH = 2048  # decisions per forward pass when scoring the held-out rounds


class CheckpointError(ValueError):
    """A checkpoint that does not belong to this training."""


@dataclass(frozen=True)
class Batch:
    """Decisions ``rows`` encoded: ``state`` (D, ``STATE_SIZE``), ``cand`` (C,
    ``CANDIDATE_SIZE``), ``owner`` (C,) the row of ``state`` of each candidate, ``values`` (C,)
    their labels, ``first`` (D + 1,) where each decision's candidates start in ``cand``."""

    state: torch.Tensor
    cand: torch.Tensor
    owner: torch.Tensor
    values: torch.Tensor
    first: np.ndarray
    index: np.ndarray  # (C,) each candidate's index in the Decisions


def candidate_index(decisions: Decisions, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The candidates of decisions ``rows``, in order: their indexes into the flat candidate
    arrays, and where each decision's start (D + 1,)."""
    lengths = decisions.start[rows + 1] - decisions.start[rows]
    first = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(lengths, out=first[1:])
    index = np.repeat(decisions.start[rows] - first[:-1], lengths) + np.arange(first[-1])
    return index, first


def encode_batch(decisions: Decisions, rows: np.ndarray) -> Batch:
    """The features and labels of decisions ``rows`` (indexes into ``decisions``)."""
    rows = np.ascontiguousarray(rows, np.int64)
    index, first = candidate_index(decisions, rows)
    state = np.empty((len(rows), STATE_SIZE), np.float32)
    cand = np.empty((len(index), CANDIDATE_SIZE), np.float32)
    d = decisions
    encode_decisions(d.public, d.private, d.decision, d.start, d.masks, d.codes, rows, state, cand)
    owner = np.repeat(np.arange(len(rows)), np.diff(first))
    return Batch(
        state=torch.from_numpy(state),
        cand=torch.from_numpy(cand),
        owner=torch.from_numpy(owner),
        values=torch.from_numpy(d.values[index]),
        first=first,
        index=index,
    )


def losses(
    q: torch.Tensor, y: torch.Tensor, owner: torch.Tensor, n: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """The (diff, value) losses of values ``q`` against labels ``y`` of candidates of ``n``
    decisions (``owner``: each candidate's decision), each a mean over the candidates."""
    counts = torch.bincount(owner, minlength=n).to(q.dtype)
    mean_q = torch.zeros(n, dtype=q.dtype).index_add(0, owner, q) / counts
    mean_y = torch.zeros(n, dtype=y.dtype).index_add(0, owner, y) / counts
    diff = ((q - mean_q[owner]) - (y - mean_y[owner])).square().mean()
    value = (q - y).square().mean()
    return diff, value


def _segment_first_max(x: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per segment ``first[i]:first[i + 1]`` of ``x``, the index of its first largest entry."""
    owner = np.repeat(np.arange(len(first) - 1), np.diff(first))
    order = np.lexsort((-x, owner))  # by segment, then largest first; ties keep their order
    return order[first[:-1]]


def metrics(q: np.ndarray, decisions: Decisions, rows: np.ndarray, value_weight: float) -> dict:
    """The held-out scores of values ``q`` (the candidates of decisions ``rows``, in order)."""
    index, first = candidate_index(decisions, rows)
    y = decisions.values[index].astype(np.float64)
    q = q.astype(np.float64)
    lengths = np.diff(first)
    owner = np.repeat(np.arange(len(rows)), lengths)
    mean_q = np.bincount(owner, q, len(rows)) / lengths
    mean_y = np.bincount(owner, y, len(rows)) / lengths
    diff = float(np.mean(((q - mean_q[owner]) - (y - mean_y[owner])) ** 2))
    value = float(np.mean((q - y) ** 2))
    best = np.maximum.reduceat(y, first[:-1])
    pick = y[_segment_first_max(q, first)]
    chosen = y[first[:-1] + decisions.chosen[rows]]
    return {
        "val_diff": diff,
        "val_value": value,
        "val_loss": diff + value_weight * value,
        "top1": float(np.mean(pick == best)),
        "regret": float(np.mean(best - pick) * 100),
        "behaviour_regret": float(np.mean(best - chosen) * 100),
        "random_regret": float(np.mean(best - mean_y) * 100),
    }


def split(decisions: Decisions, share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows): the decisions of a ``share`` of the rounds (drawn with
    ``seed``; at least one round when there are two) are held out."""
    rounds = np.unique(decisions.round)
    rng = np.random.default_rng([seed, 0x5EED])
    n_held = min(max(1, round(share * len(rounds))), len(rounds) - 1) if len(rounds) > 1 else 0
    held = np.sort(rng.choice(rounds, n_held, replace=False)) if n_held else rounds[:0]
    is_held = np.isin(decisions.round, held)
    return np.flatnonzero(~is_held), np.flatnonzero(is_held)


def _order(rows: np.ndarray, seed: int, epoch: int) -> np.ndarray:
    """Epoch ``epoch``'s order of the training decisions."""
    return np.random.default_rng([seed, epoch]).permutation(rows)


def _data_digest(decisions: Decisions) -> str:
    h = hashlib.sha256()
    for a in (decisions.start, decisions.values, decisions.round, decisions.decision):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def evaluate(model: ValueNet, decisions: Decisions, rows: np.ndarray, value_weight: float) -> dict:
    """``metrics`` of ``model`` on decisions ``rows``."""
    parts = []
    with torch.inference_mode():
        for at in range(0, len(rows), EVAL_BATCH):
            b = encode_batch(decisions, rows[at : at + EVAL_BATCH])
            parts.append(model(b.state, b.cand, b.owner).numpy())
    q = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    return metrics(q, decisions, rows, value_weight)


@dataclass
class Trained:
    """A finished training: the network, the metrics of each epoch, the loss of each step."""

    model: ValueNet
    epochs: list[dict]
    train_loss: list[float]
    n_train: int
    n_held: int
    steps: int
    seconds: float
    files: dict[str, Path] = field(default_factory=dict)
    verdict: Verdict | None = None  # the league's, when the network was judged


def _save(path: Path, state: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def train(
    settings: TrainSettings,
    decisions: Decisions,
    out_dir: str | os.PathLike,
    *,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    stop_after: int | None = None,
) -> Trained:
    """Train a ``ValueNet`` on ``decisions``, checkpoints, metrics and the loss curve in
    ``out_dir``; goes on from ``out_dir``'s checkpoint when there is one. ``stop_after``:
    stop after that many steps of the whole training (for tests of the resumption)."""
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(settings.threads)
    torch.use_deterministic_algorithms(True)
    try:  # torch's settings are the process's: given back as they were
        return _train(settings, decisions, Path(out_dir), progress, log, stop_after)
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)


def _train(
    settings: TrainSettings,
    decisions: Decisions,
    out: Path,
    progress: bool,
    log: Callable[[str], None] | None,
    stop_after: int | None,
) -> Trained:
    out.mkdir(parents=True, exist_ok=True)
    s = settings
    train_rows, held_rows = split(decisions, s.validation_share, s.seed)
    if len(train_rows) == 0 or len(held_rows) == 0:
        raise ValueError(
            f"{len(decisions.decision)} decisions from {len(np.unique(decisions.round))} rounds: "
            "too few to hold some rounds out"
        )
    per_epoch = math.ceil(len(train_rows) / s.batch_size)
    total = s.epochs * per_epoch
    torch.manual_seed(s.seed)
    model = ValueNet(*s.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=s.learning_rate)
    fingerprint = {"settings": s.fingerprint(), "data": _data_digest(decisions)}
    step, epochs, train_loss, seconds = 0, [], [], 0.0
    checkpoint = out / CHECKPOINT
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=True)
        if state.get("fingerprint") != fingerprint:
            raise CheckpointError(
                f"{checkpoint} was made with other [train] settings or other data; "
                "delete it to start again, or choose another output dir"
            )
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        step, epochs = state["step"], list(state["epochs"])
        train_loss, seconds = list(state["train_loss"]), state["seconds"]
        if log is not None and step < total:
            log(f"training goes on from step {step:,} of {total:,} ({checkpoint})")

    def save() -> None:
        _save(
            checkpoint,
            {
                "fingerprint": fingerprint,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "step": step,
                "epoch": step // per_epoch,
                "epochs": epochs,
                "train_loss": train_loss,
                "seconds": seconds,
            },
        )

    end = total if stop_after is None else min(total, stop_after)
    order, order_epoch = train_rows, -1
    started = time.perf_counter() - seconds
    bar = Progress(
        total, " steps", enabled=progress, initial=step, desc="training", at_first_update=True
    )
    with bar:
        while step < end:
            epoch, k = divmod(step, per_epoch)
            if epoch != order_epoch:
                order, order_epoch = _order(train_rows, s.seed, epoch), epoch
            b = encode_batch(decisions, order[k * s.batch_size : (k + 1) * s.batch_size])
            q = model(b.state, b.cand, b.owner)
            diff, value = losses(q, b.values, b.owner, len(b.first) - 1)
            loss = diff + s.value_weight * value
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            train_loss.append(loss.item())
            seconds = time.perf_counter() - started
            if step % per_epoch == 0:
                scores = evaluate(model, decisions, held_rows, s.value_weight)
                recent = train_loss[-per_epoch:]
                epochs.append(
                    {"epoch": epoch + 1, "step": step, "train_loss": float(np.mean(recent))}
                    | scores
                    | {"seconds": round(seconds, 3)}
                )
                bar.advance(
                    1,
                    f"epoch {epoch + 1}: regret {scores['regret']:.2f} points, top-1 "
                    f"{scores['top1']:.3f}",
                )
                save()
                write_metrics(out, epochs, train_loss, per_epoch)
            else:
                bar.advance(1)
                if step % s.checkpoint_every == 0:
                    save()
    if step < total:
        save()
    return Trained(
        model=model,
        epochs=epochs,
        train_loss=train_loss,
        n_train=len(train_rows),
        n_held=len(held_rows),
        steps=step,
        seconds=seconds,
        files={
            "checkpoint": checkpoint,
            "metrics": out / "metrics.csv",
            "curve": out / "loss.png",
        },
    )


def write_metrics(out: Path, epochs: list[dict], train_loss: list[float], per_epoch: int) -> None:
    """``metrics.csv`` (a row per epoch), ``metrics.json`` (the same, and the loss of every
    step) and ``loss.png`` (the curves) in ``out``."""
    if epochs:
        with open(out / "metrics.csv.tmp", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(epochs[0]))
            w.writeheader()
            w.writerows(epochs)
        os.replace(out / "metrics.csv.tmp", out / "metrics.csv")
    text = json.dumps({"epochs": epochs, "train_loss": train_loss}, indent=1)
    (out / "metrics.json.tmp").write_text(text)
    os.replace(out / "metrics.json.tmp", out / "metrics.json")
    _plot(out / "loss.png", epochs, train_loss, per_epoch)


def _plot(path: Path, epochs: list[dict], train_loss: list[float], per_epoch: int) -> None:
    """The training loss (a running mean over about a tenth of an epoch) and the held-out
    losses by step; the regret by epoch beside the behaviour's."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # no pyplot: the process's backend is left alone
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(10, 4))
    FigureCanvasAgg(fig)
    ax, ax2 = fig.subplots(1, 2)
    if train_loss:
        width = max(1, per_epoch // 10)
        kernel = np.ones(width) / width
        smooth = np.convolve(train_loss, kernel, mode="valid")
        ax.plot(np.arange(width, len(train_loss) + 1), smooth, label="training loss", lw=1)
    if epochs:
        steps = [e["step"] for e in epochs]
        ax.plot(steps, [e["val_loss"] for e in epochs], "o-", label="held-out loss")
        ax.plot(steps, [e["val_diff"] for e in epochs], "s--", label="held-out diff term")
        at = [e["epoch"] for e in epochs]
        ax2.plot(at, [e["regret"] for e in epochs], "o-", label="network")
        ax2.plot(at, [e["behaviour_regret"] for e in epochs], "--", label="behaviour (chosen)")
        ax2.plot(at, [e["random_regret"] for e in epochs], ":", label="at random")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    ax.set_yscale("log")
    ax.legend()
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("held-out regret (points per decision)")
    ax2.set_ylim(bottom=0)
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def learn(
    config: LearnConfig,
    *,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    play: Callable[..., Any] | None = None,
) -> Trained:
    """The whole learning of a config: the data (``[data]``, into ``<dir>/data`` by the data
    generator's ``generate``, which keeps the shards already written), the training
    (``[train]``, into ``<dir>/train``, going on from its checkpoint) and the weights file
    (``<dir>/learned.npz``). With ``[selfplay]``, then the self-play round in
    ``<dir>/selfplay/``: data played and labelled by that network, and a network trained
    afresh on the self-play decisions followed by the first ones. The last weights file is
    judged by the league (``[league]``, ``tichusim.learn.league``, its matches played by
    ``play``: its verdict in ``league.md`` and ``league.json`` beside the file) and copied to
    ``[output] weights`` only when it ships."""
    from .data import generate  # the data generator's module

    first = config.data_settings()
    data_dir = config.out_dir / "data"
    first_paths = _written(generate(first, data_dir, progress=progress), data_dir)
    meta: dict[str, Any] = {"config": config.to_json()}
    trained = _stage(
        config, first_paths, config.out_dir, config.first_weights_path, meta, progress, log
    )
    if config.selfplay is not None:
        meta["first_stage"] = identity(trained.model.arrays())
        if log is not None:
            log(f"self-play round: the network {meta['first_stage']} plays and labels")
        settings = config.selfplay_settings(config.first_weights_path)
        assert settings is not None  # [selfplay] is there
        play_dir = config.selfplay_dir / "data"
        paths = _written(generate(settings, play_dir, progress=progress), play_dir)
        trained = _stage(
            config,
            paths + first_paths,
            config.selfplay_dir,
            config.weights_path,
            meta,
            progress,
            log,
        )
    if config.output.weights is not None:
        target = Path(config.output.weights)
        config.check_league()
        assert config.league is not None  # ``check_league``: weights are judged
        if play is None:
            raise ValueError("learn: [output] weights needs the league's matches: give play")
        trained.verdict, files = ship(
            trained.files["weights"], target, config.league, first.variant, play, log=log
        )
        trained.files.update(files)
    return trained


def _written(paths: list, data_dir: Path) -> list[Path]:
    if not paths:
        raise ValueError(f"{data_dir}: no decision files were written")
    return [Path(p) for p in paths]


def _stage(
    config: LearnConfig,
    paths: list[Path],
    out_dir: Path,
    weights: Path,
    meta: dict[str, Any],
    progress: bool,
    log: Callable[[str], None] | None,
) -> Trained:
    """One training of ``config.train`` on the decisions of ``paths``, in ``out_dir/train``,
    its weights file at ``weights`` with ``meta`` and the training's figures."""
    decisions = read_decisions(paths)
    if log is not None:
        log(
            f"{len(decisions.decision):,} decisions, {len(decisions.masks):,} candidates "
            f"from {len(paths)} files"
        )
    trained = train(config.train, decisions, out_dir / "train", progress=progress, log=log)
    meta = meta | {
        "layout_hash": LAYOUT_HASH,
        "torch": torch.__version__,
        "data": {
            "decisions": len(decisions.decision),
            "candidates": len(decisions.masks),
            "rounds": count_rounds(paths),
            "train_decisions": trained.n_train,
            "held_out_decisions": trained.n_held,
        },
        "steps": trained.steps,
        "seconds": round(trained.seconds, 1),
        "metrics": trained.epochs[-1] if trained.epochs else {},
    }
    trained.files["weights"] = export(trained.model, weights, meta)
    return trained
