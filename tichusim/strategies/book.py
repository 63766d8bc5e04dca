"""A game's book of strategies, and strategies composed from it: one mechanism for both games.

A game names its decisions, the policies each decision may take (an id for the kernels and a
meaning), its numeric parameters (``Param``) and its named strategies: the team games' in
``tichusim.strategies.tichu``, Grand Seigneur's (RULES.md §5) in ``tichusim.strategies.seigneur``.
``StrategyBook`` holds them and does what is the same in both games:

* ``build`` a strategy from a table: a ``base`` (a named strategy; ``plain`` if none), a
  policy for any decision, ``params`` checked against their bounds, and a name derived from
  the changes unless given;
* ``compose`` one from the text form ``base:key=value,...`` or ``base[key=value,...]`` (the
  name a composed strategy is printed under), ``parse`` any strategy's text (each game checks
  the base itself: what it says of an unknown one differs);
* ``split_items`` and ``split_strategies``: how every strategy text is cut at its commas (a
  comma inside brackets does not cut), for a list of strategies, a strategy's changes and a
  named agent's parameters alike;
* ``param_row``: the row of floats the game's kernels read, for the variant it is played at:
  a parameter's default may depend on the variant (``variant_defaults``: the values fitted there)
  and, at a variant, on the strategy's play policy (``play_defaults``: the values fitted there
  under that play), a strategy's own value of it never does.
"""

from __future__ import annotations

import keyword
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Param",
    "RenamedPolicyWarning",
    "StrategyBook",
    "policy_of",
    "renamed_policy",
    "split_items",
    "split_strategies",
]


def split_items(text: str) -> list[str]:
    """``text`` cut at its commas, each item stripped; a comma inside brackets, at any depth,
    does not cut: ``search:base=expert[tichu=never,grand_tichu=never],samples=4`` holds two
    items, ``expert[tichu=never,grand_tichu=never]`` one. ``ValueError`` for a bracket
    without its pair."""
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"strategy {text!r}: a ']' without its '['")
        elif c == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    if depth:
        raise ValueError(f"strategy {text!r}: a '[' without its ']'")
    items.append(text[start:].strip())
    return items


def split_strategies(text: str) -> list[str]:
    """A list of strategies' text (``--strategies``, ``--others``) cut into one text per
    strategy (``split_items``): an item ``key=value`` continues the strategy before it, so
    ``heuristic:pass=lowest,bomb_points=20,random`` is two strategies and
    ``search:samples=4,base=expert[tichu=never],expert[tichu=never]`` two."""
    groups: list[str] = []
    for item in split_items(text):
        key, eq, _ = item.partition("=")
        if eq and key.strip().isidentifier() and groups:
            groups[-1] += "," + item
        else:
            groups.append(item)
    return groups


def _number_text(value: float) -> str:
    """A parameter's value in a composed strategy's name: short (``20``, ``0.5``), and exact
    when the short form would read back as another number."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


@dataclass(frozen=True)
class Param:
    """A numeric parameter: its slot in the row, default, bounds and meaning."""

    slot: int
    default: float
    low: float
    high: float
    decision: str
    doc: str


def _field(decision: str) -> str:
    """A decision's field in a strategy class: ``pass`` is a Python keyword, hence ``pass_``."""
    return decision + "_" if keyword.iskeyword(decision) else decision


def policy_of(strategy, decision: str) -> str:
    """The policy a strategy takes for ``decision``."""
    return getattr(strategy, _field(decision))


class RenamedPolicyWarning(FutureWarning):
    """A policy named by a name it had before a rename: still played, under its new name, for
    one release. A ``FutureWarning``, so a script or a command shows it by default."""


def renamed_policy(renamed: dict[str, dict[str, tuple[str, str]]], decision: str, name):
    """``name``, or the policy it was renamed to (with a ``RenamedPolicyWarning``) when
    ``renamed[decision]`` lists it as an old name: ``old -> (new, why)``."""
    old = renamed.get(decision, {})
    if isinstance(name, str) and name in old:
        new, why = old[name]
        warnings.warn(
            f"{decision} policy {name!r} is now called {new!r} ({why}); the old name "
            "goes in the next release",
            RenamedPolicyWarning,
            stacklevel=3,
        )
        return new
    return name


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what}: expected a number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{what}: expected a finite number, got {value!r}")
    return value


def _number_or_text(text: str):
    try:
        return float(text)
    except ValueError:
        return text  # build() names the parameter that wanted a number


def _accept(key: str) -> None:
    """Every key is the game's own, or simply unknown."""


@dataclass(frozen=True)
class StrategyBook:
    """One game's strategies: decisions, policies, parameters, named strategies (see above).

    ``strategy_class`` is the game's strategy class (fields ``name``, one per decision,
    ``params``, ``description``); ``slots`` gives each decision's slot in the kernels' row of
    ``row_size`` floats; ``name_form`` names a composed strategy from ``{base}`` and
    ``{changes}``; ``refuse`` raises for a key that belongs to another game, saying why."""

    strategy_class: type
    decisions: tuple[str, ...]
    slots: dict[str, int]
    policies: dict[str, dict[str, tuple[int, str]]]
    params: dict[str, Param]
    strategies: dict[str, Any]
    row_size: int
    name_form: str
    default: str  # the game's default strategy: the one that plays where none is named
    # the base of a table that names none: a strategy without tuned parameters (heuristic), so
    # that a saved table (``to_dict``: every policy and override named, no base) rebuilds the
    # same strategy, and a table written before expert became the default keeps its meaning
    plain: str
    refuse: Callable[[str], None] = _accept
    # variant name -> parameter -> the default there, where it differs from the Param's (the
    # values fitted at that variant: expert's call coefficients); a strategy's override still wins
    variant_defaults: dict[str, dict[str, float]] = field(default_factory=dict)
    # (variant, play policy) -> parameter -> the default there for a strategy with that play
    # policy, over the variant's (the learned play's own call coefficients)
    play_defaults: dict[tuple[str, str], dict[str, float]] = field(default_factory=dict)
    # decision -> old policy name -> (its new name, why): the old name is still accepted, with
    # a ``RenamedPolicyWarning``
    renamed: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    # keys whose value is text, each a field of the strategy class (empty: none), kept as
    # written: the team games' ``weights``, a learned play's weights file
    texts: tuple[str, ...] = ()

    def param_values(self, strategy, variant: str | None = None) -> dict[str, float]:
        """Every parameter's value for ``strategy`` at ``variant`` (a game's name; ``None``: the
        Params' defaults): the default, the variant's default, the variant's default for the
        strategy's play policy, the strategy's override."""
        values = {name: p.default for name, p in self.params.items()}
        if variant is not None:
            values.update(self.variant_defaults.get(variant, {}))
            if self.play_defaults:
                values.update(self.play_defaults.get((variant, policy_of(strategy, "play")), {}))
        values.update(strategy.params)
        return values

    def param_row(self, strategy, variant: str | None = None) -> np.ndarray:
        row = np.zeros(self.row_size, np.float64)
        for decision in self.decisions:
            row[self.slots[decision]] = self.policies[decision][policy_of(strategy, decision)][0]
        for name, value in self.param_values(strategy, variant).items():
            row[self.params[name].slot] = value
        return row

    def to_dict(self, strategy) -> dict[str, Any]:
        """The table ``build`` turns back into ``strategy`` (every policy and override named):
        how a config saves a strategy object."""
        out: dict[str, Any] = {"name": strategy.name}
        out.update({d: policy_of(strategy, d) for d in self.decisions})
        out.update({k: getattr(strategy, k) for k in self.texts if getattr(strategy, k)})
        out["params"] = dict(strategy.params)
        return out

    def build(self, spec: dict):
        """A strategy from a table: ``base`` (a named strategy, default ``plain``), any of the
        decisions with a policy name, ``params`` (name -> number) and an optional ``name``."""
        known = ("name", "base", *self.decisions, *self.texts, "params")
        for key in spec:
            self.refuse(key)
            if key not in known:
                raise ValueError(f"strategy: unknown key {key!r} (known: {', '.join(known)})")
        base_name = spec.get("base", self.plain)
        if base_name not in self.strategies:
            raise ValueError(
                f"strategy base: unknown strategy {base_name!r} "
                f"(known: {', '.join(self.strategies)})"
            )
        base = self.strategies[base_name]
        chosen = {d: policy_of(base, d) for d in self.decisions}
        for d in self.decisions:
            if d in spec:
                policy = renamed_policy(self.renamed, d, spec[d])
                if not isinstance(policy, str) or policy not in self.policies[d]:
                    raise ValueError(
                        f"strategy {d}: unknown policy {spec[d]!r} "
                        f"(known: {', '.join(self.policies[d])})"
                    )
                chosen[d] = policy
        texts = {k: getattr(base, k) for k in self.texts}
        for k in self.texts:
            if k in spec:
                if not isinstance(spec[k], str):
                    raise ValueError(f"strategy {k}: expected text, got {spec[k]!r}")
                texts[k] = spec[k].strip()
        params = spec.get("params", {})
        if not isinstance(params, dict):
            raise ValueError(f"strategy params: expected a table of name = number, got {params!r}")
        overrides = dict(base.params)
        for key, value in params.items():
            if key not in self.params:
                raise ValueError(
                    f"strategy params: unknown parameter {key!r} (known: {', '.join(self.params)})"
                )
            p = self.params[key]
            value = _number(value, f"strategy params.{key}")
            if not p.low <= value <= p.high:
                raise ValueError(
                    f"strategy params.{key}: {value:g} is outside [{p.low:g}, {p.high:g}]"
                )
            overrides[key] = value
        changes = [f"{d}={chosen[d]}" for d in self.decisions if chosen[d] != policy_of(base, d)]
        changes += [f"{k}={v}" for k, v in texts.items() if v != getattr(base, k)]
        changes += [f"{k}={_number_text(overrides[k])}" for k in params]
        derived = self.name_form.format(base=base_name, changes=",".join(changes))
        name = spec.get("name") or (derived if changes else base_name)
        if not isinstance(name, str):
            raise ValueError(f"strategy name: expected text, got {name!r}")
        return self.strategy_class(
            name=name,
            params=tuple(sorted(overrides.items())),
            description=f"{base_name} with {', '.join(changes) or 'no changes'}",
            **{_field(d): chosen[d] for d in self.decisions},
            **texts,
        )

    def compose(self, text: str, base: str, changes: str):
        """The named strategy ``base`` with the ``changes`` ``key=value,...`` written in
        ``text``: a decision (its value a policy), a text key (``texts``) or ``name``, any
        other key a parameter (its value a number); without changes, the named strategy
        itself."""
        spec: dict = {"base": base}
        params: dict = {}
        for item in filter(None, split_items(changes)):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise ValueError(f"strategy {text!r}: expected key=value, got {item!r}")
            self.refuse(key)
            if key in self.decisions or key in self.texts or key == "name":
                spec[key] = value
            else:
                params[key] = _number_or_text(value)
        if params:
            spec["params"] = params
        return self.build(spec) if len(spec) > 1 else self.strategies[base]

    def split_text(self, text: str) -> tuple[str, str]:
        """The base and the changes of a strategy's text: ``name``; ``base:key=value,...``;
        ``base[key=value,...]``, the name a composed strategy is printed under; or
        ``key=value,...`` alone, on the base ``plain``."""
        text = text.strip()
        head, bracket, _ = text.partition("[")
        if bracket and text.endswith("]") and not any(c in head for c in ":="):
            return head.strip(), text[len(head) + 1 : -1]
        if ":" in text:
            base, _, changes = text.partition(":")
            return base.strip(), changes
        if "=" in text:
            return self.plain, text
        return text, ""

    def parse(self, text: str):
        """The scripted strategy a text names (``split_text``), its changes checked
        (``compose``)."""
        base, changes = self.split_text(text)
        if base not in self.strategies:
            known = ", ".join(sorted(self.strategies))
            if base == text.strip():
                raise ValueError(f"unknown strategy {base!r} (known: {known})")
            raise ValueError(f"strategy {text!r}: unknown base {base!r} (known: {known})")
        return self.compose(text, base, changes)
