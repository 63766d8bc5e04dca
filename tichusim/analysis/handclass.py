"""Hand classes and a fitted Grand Tichu model: features of first-8-card hands, and a model that
answers for any 8 cards.

Features (of an 8-card mask): Aces, Kings, Dragon, Phoenix, Dog, Mah Jong, a bomb (four of a
kind or straight flush, RULES.md §2.7), ranks held twice or more, the number of plays the hand
needs (``kernels.hand.plan_size``: the heuristic's own measure of shape) and the heuristic's
hand-strength score with default weights (``kernels.policies.strength``, the number the
``threshold`` call policies compare with ``gt_threshold``).

``GTModel`` is fitted on paired experiments (``tichusim.analysis.gttable``): logistic regressions
for P(out first | call) and for P(plain Tichu without the Grand Tichu), and a linear
regression for the paired gain in points of calling on the features plus the bonus term those two
probabilities imply, by Newton/IRLS and least squares in numpy. Intervals of a prediction
carry the sampling error of the coefficients only, not the error of the model's form; the
held-out calibration stored with the model (by decile of predicted gain and by strength
score, where the decisions are) measures that.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import cards
from ..kernels.tichu.handfeatures import hand_features
from ..stats import Z95, Estimate, json_estimates, percent
from ..strategies.tichu import STRATEGIES
from .gtodds import decision

__all__ = ["FEATURES", "GTModel", "features", "hand_class", "representative", "strength_scores"]

# columns of ``features``, in the order ``kernels/tichu/handfeatures.py`` fills them; the model
# uses all but ``score`` (a fixed weighting of the others)
FEATURES = (
    "aces",
    "kings",
    "dragon",
    "phoenix",
    "dog",
    "mah_jong",
    "bomb",
    "pairs",
    "plays",
    "score",
)
MODEL_FEATURES = FEATURES[:-1]


def features(hands) -> np.ndarray:
    """``(n, len(FEATURES))`` float array of the hands' features (``uint64`` masks)."""
    # a fresh writable copy: a read-only column (pandas over Arrow) would compile the kernel
    # a second time, for read-only arrays
    hands = np.array(hands, dtype=np.uint64).reshape(-1)
    out = np.zeros((hands.size, len(FEATURES)), np.float64)
    hand_features(hands, STRATEGIES["heuristic"].param_row(), out)
    return out


def strength_scores(hands) -> np.ndarray:
    """`heuristic`'s hand-strength score of each hand (8 or 14 cards)."""
    return features(hands)[:, FEATURES.index("score")]


def hand_class(f: np.ndarray) -> dict[str, np.ndarray]:
    """The class columns of feature rows: Aces, Dragon, Phoenix, bomb and the score bin (the
    score rounded down to a whole number)."""
    col = {name: f[:, i] for i, name in enumerate(FEATURES)}
    return {
        "aces": col["aces"].astype(np.int64),
        "dragon": col["dragon"].astype(bool),
        "phoenix": col["phoenix"].astype(bool),
        "bomb": col["bomb"].astype(bool),
        "score_bin": np.floor(col["score"]).astype(np.int64),
    }


# ---- the model --------------------------------------------------------------------------


def _design(f: np.ndarray) -> np.ndarray:
    idx = [FEATURES.index(n) for n in MODEL_FEATURES]
    return np.column_stack([np.ones(len(f)), f[:, idx]])


def fit_logistic(x: np.ndarray, y: np.ndarray, iters: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-likelihood logistic regression by Newton's method (IRLS). A tiny ridge keeps the
    Hessian invertible when a feature never varies (e.g. no bomb in a small sample). Returns
    the coefficients and their covariance (inverse Fisher information)."""
    beta = np.zeros(x.shape[1])
    ridge = 1e-6 * np.eye(x.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(x @ beta)))
        w = p * (1 - p)
        hess = (x * w[:, None]).T @ x + ridge
        step = np.linalg.solve(hess, x.T @ (y - p) - ridge @ beta)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    p = 1 / (1 + np.exp(-(x @ beta)))
    cov = np.linalg.inv((x * (p * (1 - p))[:, None]).T @ x + ridge)
    return beta, cov


def fit_linear(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least squares with the heteroskedasticity-robust (HC0) covariance: the spread of the
    point gain differs a lot between weak and strong hands."""
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ beta
    bread = np.linalg.inv(x.T @ x)
    meat = (x * (resid**2)[:, None]).T @ x
    return beta, bread @ meat @ bread


def representative(pattern: str) -> int:
    """A concrete 8-card mask for a pattern: suit-less ranks take the free suits in turn
    (Jade first), which keeps ranks apart and so adds no straight flush of its own."""
    exact, ranks = cards.parse_pattern(pattern)
    mask = exact
    suit = 0
    for r in range(2, 15):
        for _ in range(int(ranks[r])):
            for k in range(4):
                bit = 1 << (16 * ((suit + k) % 4) + r)
                if not mask & bit:
                    mask |= bit
                    suit = (suit + k + 1) % 4
                    break
    return mask


def _bonus_term(p: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The value of the call if only the bonuses counted: a Grand Tichu is worth ±200
    (RULES.md §2.14) against, without it, a plain Tichu (±100) with probability ``t``. Going
    out first with the call is the same event as without it often enough for this to carry
    most of the gain's curvature, which features alone (linear) cannot: strong hands that
    would call Tichu anyway gain far less than a linear fit of weak and middling hands says."""
    return (200 - 100 * t) * (2 * p - 1)


@dataclass(frozen=True)
class GTModel:
    """Fitted coefficients with their covariances, and what they were fitted on (``info``:
    deals, seed, strategies, held-out calibration).

    ``logit``: P(out first | call) on ``[1, MODEL_FEATURES]``; ``tichu_logit``: P(a plain
    Tichu is called without the Grand Tichu) on the same; ``gain``: the points gained by
    calling on ``[1, MODEL_FEATURES, bonus term]`` (``_bonus_term`` of the two fitted
    probabilities)."""

    logit: np.ndarray
    logit_cov: np.ndarray
    tichu_logit: np.ndarray
    gain: np.ndarray
    gain_cov: np.ndarray
    info: dict

    @classmethod
    def fit(cls, hands, success, gain, tichu, info: dict | None = None) -> GTModel:
        x = _design(features(hands))
        b1, c1 = fit_logistic(x, np.asarray(success, np.float64))
        bt, _ = fit_logistic(x, np.asarray(tichu, np.float64))
        z = np.column_stack([x, _bonus_term(_sigmoid(x @ b1), _sigmoid(x @ bt))])
        b2, c2 = fit_linear(z, np.asarray(gain, np.float64))
        return cls(b1, c1, bt, b2, c2, dict(info or {}))

    def predict_many(self, hands) -> dict[str, np.ndarray]:
        """``p_success`` and ``ev_diff`` (points gained by calling) with 95% intervals (the
        gain's interval takes the bonus term as known: its own error is much smaller)."""
        x = _design(features(hands))
        eta = x @ self.logit
        se_eta = np.sqrt(np.einsum("ij,jk,ik->i", x, self.logit_cov, x))
        z = np.column_stack([x, _bonus_term(_sigmoid(eta), _sigmoid(x @ self.tichu_logit))])
        gain = z @ self.gain
        se_gain = np.sqrt(np.einsum("ij,jk,ik->i", z, self.gain_cov, z))
        return {
            "p_success": _sigmoid(eta),
            "ci_low": _sigmoid(eta - Z95 * se_eta),
            "ci_high": _sigmoid(eta + Z95 * se_eta),
            "ev_diff": gain,
            "ev_diff_ci_low": gain - Z95 * se_gain,
            "ev_diff_ci_high": gain + Z95 * se_gain,
        }

    def predict(self, hand: str) -> dict:
        """The model's answer for 8 cards (``cards.parse_pattern`` notation): ``estimates``,
        ``p_success`` and ``ev_diff`` in the one shape of an estimate (``n``: the deals the
        model was fitted on), beside them, deprecated, their flat keys."""
        mask = representative(hand)
        out = {k: float(v[0]) for k, v in self.predict_many([mask]).items()}
        n = int(self.info.get("deals", 0))
        estimates = {
            name: Estimate(out[name], out[low], out[high], n)
            for name, low, high in (
                ("p_success", "ci_low", "ci_high"),
                ("ev_diff", "ev_diff_ci_low", "ev_diff_ci_high"),
            )
        }
        f = features([mask])[0]
        return {
            "hand": cards.format(mask),
            **json_estimates(estimates, {"p_success": ("ci_low", "ci_high")}),
            "features": {n: float(f[FEATURES.index(n)]) for n in FEATURES},
            # the players it was fitted with, as saved: not today's defaults
            "fitted_on": {
                k: self.info[k]
                for k in ("deals", "seed", "strategies", "weights")
                if k in self.info
            },
        }

    def describe(self, answer: dict) -> str:
        """Text for ``gt-odds --model``."""
        p, gain = answer["estimates"]["p_success"], answer["estimates"]["ev_diff"]
        cal = self.info.get("holdout", {})
        return "\n".join(
            [
                f"Grand Tichu model for {answer['hand']} (fitted on {self.info.get('deals', 0):,} "
                f"deals; {self.info.get('strategies', '')}"
                + (f"; learned weights {self.info['weights']}" if self.info.get("weights") else "")
                + ")",
                f"  P(out first | call)         {percent(p['value'], 5)}  "
                f"[{100 * p['low']:.1f}, {100 * p['high']:.1f}]",
                f"  call - no call, points      {gain['value']:+7.1f}  "
                f"[{gain['low']:+.1f}, {gain['high']:+.1f}]"
                f"   -> {decision(Estimate(**gain))}",
                "  (intervals: coefficient sampling only; held-out calibration error "
                f"{cal.get('p_rmse_by_decile', math.nan):.3f} in P, "
                f"{cal.get('gain_rmse_by_decile', math.nan):.1f} points; simulate with gt-odds "
                "for this hand's own estimate)",
            ]
        )

    _ARRAYS = ("logit", "logit_cov", "tichu_logit", "gain", "gain_cov")

    def to_json(self) -> dict:
        d = {"features": ["intercept", *MODEL_FEATURES], "gain_terms": "features + bonus term"}
        d.update({k: getattr(self, k).tolist() for k in self._ARRAYS})
        return d | {"info": self.info}

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path) -> GTModel:
        try:
            d = json.loads(Path(path).read_text())
            if d["features"] != ["intercept", *MODEL_FEATURES]:
                raise ValueError("its features differ from this version's")
            logit, logit_cov, tichu_logit, gain, gain_cov = (
                np.asarray(d[k], np.float64) for k in cls._ARRAYS
            )
            return cls(logit, logit_cov, tichu_logit, gain, gain_cov, d.get("info", {}))
        except OSError as exc:
            raise ValueError(f"model {path}: {exc.strerror or exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"model {path}: not a Grand Tichu model ({exc})") from None


def _sigmoid(t: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-t))


def calibration(model: GTModel, hands, success, gain, bins: int = 10, min_bin: int = 200) -> dict:
    """Held-out check, two ways. By decile of predicted gain: mean prediction against mean
    observed value, summarised by the RMSE over deciles (and the RMSE the observed means'
    noise alone would give). By strength-score bin (``min_bin`` deals or more): the same for
    the gain, with the observed mean's standard error, because the rare strong hands where
    calling pays are a small part of the top decile."""
    hands = np.asarray(hands, np.uint64)
    success, gain = np.asarray(success, np.float64), np.asarray(gain, np.float64)
    pred = model.predict_many(hands)
    order = np.argsort(pred["ev_diff"], kind="stable")
    parts = np.array_split(order, bins)
    rows = [
        {
            "p_pred": float(pred["p_success"][part].mean()),
            "p_obs": float(success[part].mean()),
            "gain_pred": float(pred["ev_diff"][part].mean()),
            "gain_obs": float(gain[part].mean()),
            "n": int(part.size),
        }
        for part in parts
    ]

    def rmse(a, b):
        return float(np.sqrt(np.mean([(r[a] - r[b]) ** 2 for r in rows])))

    score_bin = np.floor(features(hands)[:, FEATURES.index("score")]).astype(np.int64)
    by_score = []
    for b in np.unique(score_bin):
        sel = score_bin == b
        n = int(sel.sum())
        if n >= min_bin:
            by_score.append(
                {
                    "score_bin": int(b),
                    "n": n,
                    "gain_pred": float(pred["ev_diff"][sel].mean()),
                    "gain_obs": float(gain[sel].mean()),
                    "gain_obs_se": float(gain[sel].std(ddof=1) / np.sqrt(n)),
                }
            )
    return {
        "deciles": rows,
        "p_rmse_by_decile": rmse("p_pred", "p_obs"),
        "gain_rmse_by_decile": rmse("gain_pred", "gain_obs"),
        "p_noise": float(np.sqrt(np.mean([success[q].var() / q.size for q in parts]))),
        "gain_noise": float(np.sqrt(np.mean([gain[q].var(ddof=1) / q.size for q in parts]))),
        "by_score": by_score,
        "deals": len(order),
    }
