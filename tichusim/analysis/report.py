"""``tichusim report RUN_DIR``: a Markdown summary of a run with PNG plots, written into it.

The variant comes from the tables' ``variant`` column and picks a report builder
(``BUILDERS``); the builders share their section helpers. Every estimate has its 95% interval
(normal for means, Wilson for rates):

* the team games, Nanjing (RULES.md §2) and Tientsin (§3): round scores of both teams, double
  (triple) victories, per strategy the points per round, call rates and success (the caller
  went out first, §2.3/§2.14), call success by the hand-strength score of the caller's hand
  (`heuristic`'s weights, on the cards seen before a Grand Tichu call, 8 or in
  Tientsin 6, and on the hand after the passing for Tichu, the hand a Tichu caller plays with;
  a Tichu called before the passing was judged on the dealt hand, which the table also
  holds), finishing positions; in games mode rounds per game and games won;
* Wu Wang (§4): points per round of each player and of the Minister, how often the King's side
  outscores the opponents, per role (king, opponent, minister) calls, success and finishing
  positions (only opponents may call Grand Tichu); in games mode who wins (the Minister can)
  and rounds per game;
* Grand Seigneur (§5): per strategy (or per player when all play the same) the mean finishing
  rank and how often it goes out first; with games of two rounds or more the rank-to-rank
  transition matrix and how long a Grand Seigneur keeps the title (``seigneur_analysis``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from ..games import DEFAULT_GAME, GAMES, game_type
from ..runs.read import load
from ..stats import Estimate, mean_ci, wilson
from .handclass import strength_scores
from .seigneur_analysis import reign_summary, reigns, transitions

__all__ = [
    "REPORT",
    "report",
    "per_group",
    "role_section",
    "rounds_per_game",
    "fmt_pct",
    "fmt_pts",
    "fmt_num",
    "share_of",
    "markdown_table",
]

REPORT = "report.md"
FIGURES = "report"  # folder of the PNGs inside the run directory
# what any variant's report reads (load skips the names a table lacks)
ROUND_COLUMNS = [
    "variant",
    "round",
    "game",
    "round_in_game",
    "score_team0",
    "score_team1",
    "double_victory",
    "triple_victory",
    "first_out",
    "bombs",
    "tricks",
    "game_over",
    "total_team0",
    "total_team1",
    "king",
    "score_player0",
    "score_player1",
    "score_player2",
    "score_minister",
    "total_player0",
    "total_player1",
    "total_player2",
    "total_minister",
    "winner",
    "players",
    "deck",
    "grand_seigneur",
    "kept_title",
]
SEAT_COLUMNS = [
    "round",
    "seat",
    "team",
    "role",
    "strategy",
    "hand8",
    "hand_passed",
    "grand_tichu",
    "tichu",
    "finish",
    "points",
    "player",
    "rank_before",
    "rank_after",
    "bombs_played",
    "bombs_out_of_turn",
    "first_bomb_kind",
    "first_bomb_trick",
    "tricks_won",
    "card_points_won",
    "phoenix_as",
    "dragon",
    "mahjong_wish",
    "wish_fulfilled",
    "cards_left",
]
MIN_CALLS = 30  # score bins with fewer calls are left out of the table and the plot
TOP_REIGN = 6  # reign lengths shown one by one below this, then "6+"


@dataclass(frozen=True)
class TeamRules:
    """What the report needs of a team game's rules."""

    title: str
    victory: str  # the rounds column of the victory that ends a round at once (§2.13, §3)
    victory_name: str
    victory_places: str  # the places one side takes for it
    gt_cards: int  # cards seen before a Grand Tichu call: what ``hand8`` holds (§2.2, §3)
    tichu_hand: str  # the hand after the passing, which a Tichu call is scored on
    places: dict  # finish value -> label, in the order shown
    strength_note: str = ""  # what differs in the call-strength section


_FOUR = {1: "1st out", 2: "2nd", 3: "3rd", 4: "last", 0: "beaten 1-2"}
TEAM_RULES = {
    "nanjing": TeamRules(
        "Tichu Nanjing, 4 players (RULES.md §2)",
        "double_victory",
        "double victory",
        "first and second",
        8,
        "14 cards",
        _FOUR,
    ),
    "tientsin": TeamRules(
        "Tichu Tientsin, 6 players in two teams of three (RULES.md §3)",
        "triple_victory",
        "triple victory",
        "first, second and third",
        6,
        "9 or 10 cards",
        {1: "1st out", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "last", 0: "beaten 1-2-3"},
        "In Tientsin Grand Tichu is called after 6 cards (RULES.md §3): the "
        "table's `hand8` column holds those 6. The score subtracts one per "
        "play the hand needs, so on fewer cards it runs higher than on 8 of "
        "the same quality: its bins are not those of the 4-player game.",
    ),
    "wuwang": TeamRules(
        "Wu Wang, 3 players and the Minister (RULES.md §4)",
        "double_victory",
        "double victory",
        "first and second",
        8,
        "14 cards",
        _FOUR,
        "Only the opponents call Grand Tichu; the Minister neither gives nor "
        "receives, so its Tichu (called by the King) is scored on its dealt 14 "
        "(RULES.md §4).",
    ),
}
ROLES = ("king", "opponent", "minister")
MINISTER = 3  # Wu Wang's seat row and winner code of the Minister


# ---- formatting (public: the scripts that write results/*.md use them too) ----------------


def fmt_pct(e: Estimate) -> str:
    """A rate and its interval in percent (``Estimate.pct``), as a table cell."""
    return e.pct()


def fmt_pts(e: Estimate) -> str:
    """Points with a sign and their interval (``Estimate.pts``), as a table cell."""
    return e.pts()


def fmt_num(e: Estimate) -> str:
    """A mean and its interval to three decimals (``Estimate.num``), as a table cell."""
    return e.num()


def share_of(hits, n: int) -> Estimate:
    """The share of ``n`` that ``hits`` (booleans) counts, with its Wilson interval."""
    return wilson(int(np.sum(hits)), n)


def rounds_per_game(rounds: pd.DataFrame) -> str:
    """Rounds per game: a mean with its interval, or the one length all games have (Wu Wang's
    9, §4; Grand Seigneur's ``game_rounds``)."""
    sizes = rounds.groupby("game").size()
    return f"{sizes.iloc[0]} (every game)" if sizes.nunique() == 1 else fmt_num(mean_ci(sizes))


def _pct_cells(df: pd.DataFrame, value: str, n: str) -> list[str]:
    """``fmt_pct`` of each row of a table with ``value``, ``low``, ``high`` and ``n`` columns."""
    return [
        fmt_pct(Estimate(*row))
        for row in zip(df[value], df["low"], df["high"], df[n], strict=False)
    ]


def markdown_table(df: pd.DataFrame) -> list[str]:
    """The lines of ``df`` as a Markdown table (no index)."""
    cols = list(df.columns)
    lines = ["| " + " | ".join(map(str, cols)) + " |", "|---" * len(cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return lines


def _figure_table(rows: list[tuple[str, str]]) -> list[str]:
    return ["| figure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)]


def _image(figs: Path, name: str, caption: str) -> str:
    return f"![{caption}]({figs.name}/{name})"


def _bars(rows: list[tuple[str, Estimate]]) -> pd.DataFrame:
    """``plots.estimate_bars`` input from labelled estimates."""
    return pd.DataFrame(
        [{"label": k, "value": e.value, "low": e.low, "high": e.high} for k, e in rows]
    )


# ---- tables shared by the team games ------------------------------------------------------


def per_group(
    seats: pd.DataFrame,
    rounds: pd.DataFrame,
    by: str,
    *,
    victory: str,
    victory_name: str,
    side: str = "team",
    order=None,
) -> pd.DataFrame:
    """One row per value of ``by`` (strategy, role, ...). Calls and finishing are per
    seat-round; points and victories (its side took the first places) are per side-round
    (partners share one score, so counting each seat would multiply the sample without adding
    information)."""
    won = rounds.set_index("round")[victory]
    first_team = seats.loc[seats["finish"] == 1].set_index("round")["team"]  # the side out first
    rows = []
    for name, g in seats.groupby(by, observed=True, sort=True):
        first = g["finish"] == 1
        side_rounds = g.groupby(["round", "team"], sort=False)["points"].first().reset_index()
        keys = side_rounds["round"]
        victories = won.reindex(keys).to_numpy(bool) & (
            first_team.reindex(keys).to_numpy() == side_rounds["team"].to_numpy()
        )
        row = {
            by: str(name),
            "seat-rounds": f"{len(g):,}",
            f"points/round (its {side})": fmt_pts(mean_ci(side_rounds["points"])),
        }
        for call, label in (("tichu", "Tichu"), ("grand_tichu", "Grand Tichu")):
            c = g[g[call].astype(bool)]
            row[f"{label} calls"] = fmt_pct(wilson(len(c), len(g)))
            row[f"{label} success"] = fmt_pct(share_of(c["finish"] == 1, len(c)))
        row["out first"] = fmt_pct(share_of(first, len(g)))
        row[f"{victory_name} (its {side})"] = fmt_pct(share_of(victories, len(side_rounds)))
        rows.append(row)
    out = pd.DataFrame(rows)
    if order is not None:
        out = out.set_index(by).reindex([o for o in order if o in set(out[by])]).reset_index()
    return out


def call_success(seats: pd.DataFrame) -> pd.DataFrame:
    """Success of calls by score bin: rows ``call, score_bin, calls, success, low, high``."""
    rows = []
    for call, label, hand in (
        ("grand_tichu", "Grand Tichu", "hand8"),
        ("tichu", "Tichu", "hand_passed"),
    ):
        c = seats[seats[call].astype(bool)]
        if not len(c):
            continue
        bins = np.floor(strength_scores(c[hand].to_numpy(np.uint64))).astype(np.int64)
        ok = (c["finish"] == 1).to_numpy()
        for b in np.unique(bins):
            sel = bins == b
            e = share_of(ok[sel], int(sel.sum()))
            rows.append(
                {
                    "call": label,
                    "score_bin": int(b),
                    "calls": e.n,
                    "success": e.value,
                    "low": e.low,
                    "high": e.high,
                }
            )
    return pd.DataFrame(rows, columns=["call", "score_bin", "calls", "success", "low", "high"])


def finish_table(seats: pd.DataFrame, by: str, places: dict, order=None) -> pd.DataFrame:
    """Share of each finishing position per value of ``by`` with its Wilson interval: rows
    ``group, position, share, low, high, n`` (``places`` labels the ``finish`` values)."""
    rows = []
    for name, g in seats.groupby(by, observed=True, sort=True):
        label = f"seat {name}" if by == "seat" else str(name)
        for value, position in places.items():
            e = share_of(g["finish"] == value, len(g))
            rows.append(
                {
                    "group": label,
                    "position": position,
                    "share": e.value,
                    "low": e.low,
                    "high": e.high,
                    "n": e.n,
                }
            )
    out = pd.DataFrame(rows)
    seen = out.groupby("position", sort=False)["share"].max()  # a place nobody took is noise
    out = out[out["position"].map(seen) > 0]
    if order is not None:
        rank = {k: i for i, k in enumerate(order)}
        out = out.sort_values("group", key=lambda s: s.map(rank), kind="stable")
    return out


def _finish_lines(table: pd.DataFrame, by: str) -> list[str]:
    cells = table.assign(cell=_pct_cells(table, "share", "n"))
    wide = cells.pivot(index="group", columns="position", values="cell")
    wide = wide.reindex(
        index=list(dict.fromkeys(table["group"])), columns=list(dict.fromkeys(table["position"]))
    )
    return markdown_table(wide.rename_axis(by).reset_index().rename_axis(None, axis=1))


# ---- sections shared by the team games ----------------------------------------------------


def _strength_section(rules: TeamRules, seats: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import call_success_plot

    calls = call_success(seats)
    seen = f"first {rules.gt_cards} cards"
    call_success_plot(
        calls,
        figs / "call_success.png",
        hands=f"the {seen} (Grand Tichu) or the {rules.tichu_hand} after passing (Tichu)",
    )
    lines = [
        "## Call success by hand strength",
        "",
        "Score: heuristic's hand-strength score (it calls Grand Tichu at 2.5 "
        f"and Tichu at 0) of the caller's {seen} (Grand Tichu) or of its "
        f"{rules.tichu_hand} after the passing (Tichu); bins with fewer than {MIN_CALLS} "
        "calls are left out." + (f" {rules.strength_note}" if rules.strength_note else ""),
    ]
    lines += ["", _image(figs, "call_success.png", "call success"), ""]
    shown = calls[calls["calls"] >= MIN_CALLS]
    if not len(shown):
        return [*lines, f"No score bin has {MIN_CALLS} calls or more in this run.", ""]
    shown = shown.assign(success=_pct_cells(shown, "success", "calls"))
    table = shown[["call", "score_bin", "calls", "success"]].rename(
        columns={"score_bin": "score from"}
    )
    return [*lines, *markdown_table(table), ""]


def _finish_section(
    rules: TeamRules, seats: pd.DataFrame, figs: Path, by: str, order=None
) -> list[str]:
    from .plots import finish_plot

    table = finish_table(seats, by, rules.places, order)
    finish_plot(table, figs / "finish.png")
    return [
        "## Finishing positions",
        "",
        _image(figs, "finish.png", "finishing positions"),
        "",
        *_finish_lines(table, by),
        "",
    ]


_BOMB_TRICKS = (
    (0, 0, "trick 1"),
    (1, 1, "2"),
    (2, 2, "3"),
    (3, 4, "4-5"),
    (5, 7, "6-8"),
    (8, 99, "9+"),
)


def _doings_section(rules: TeamRules, seats: pd.DataFrame, figs: Path) -> list[str]:
    """What the seats did (the engine's records, docs/schema.md): when the first bombs fall,
    who takes the points and tricks by finishing place, how the special cards went. Runs
    written before these columns existed have none of it."""
    if "bombs_played" not in seats.columns:
        return []
    from .plots import estimate_bars

    bombed = seats[seats["bombs_played"] > 0]
    trick = bombed["first_bomb_trick"].to_numpy()
    when = [
        (label, share_of((trick >= lo) & (trick <= hi), len(bombed)))
        for lo, hi, label in _BOMB_TRICKS
    ]
    estimate_bars(
        _bars(when),
        figs / "bombs_when.png",
        percent=True,
        ylabel="% of first bombs",
        title="When a seat plays its first bomb (tricks completed before it + 1)",
    )
    return [
        "## What the seats did",
        "",
        *_figure_table(_doings_rows(seats, bombed)),
        "",
        _image(figs, "bombs_when.png", "when first bombs are played"),
        "",
        "Who takes the points, by finishing place (card points in the tricks a seat took, "
        "before the end-of-round hand-overs):",
        "",
        *markdown_table(pd.DataFrame(_by_place(rules, seats))),
        "",
    ]


def _doings_rows(seats: pd.DataFrame, bombed: pd.DataFrame) -> list[tuple[str, str]]:
    """The rates of what the seats did: bombs (``bombed``: the seat-rounds with one), the
    Phoenix, the Dragon and the wish."""
    n = len(seats)
    rows = [
        ("seat-rounds with a bomb played", fmt_pct(share_of(seats["bombs_played"] > 0, n))),
        (
            "of them, a bomb out of turn (§2.9)",
            fmt_pct(share_of(bombed["bombs_out_of_turn"] > 0, len(bombed))),
        ),
        (
            "four of a kind as the first bomb",
            fmt_pct(
                share_of(bombed["first_bomb_kind"].astype(str) == "four_of_a_kind", len(bombed))
            ),
        ),
    ]
    phoenix = seats["phoenix_as"].astype(str)
    spent = phoenix[phoenix != "none"]
    for how in ("led", "on_single", "in_combination", "held"):
        rows.append(
            (
                f"Phoenix {how.replace('_', ' ')} (of its holders)",
                fmt_pct(share_of(spent == how, len(spent))),
            )
        )
    dragon = seats["dragon"].astype(str)
    played = dragon[dragon != "none"]
    rows.append(
        (
            "Dragon played and its trick given (§2.12)",
            fmt_pct(share_of(played == "given", len(played))),
        )
    )
    wished = seats[seats["mahjong_wish"] > 0]
    rows.append(
        ("wishes fulfilled (§2.11)", fmt_pct(share_of(seats["wish_fulfilled"], len(wished))))
    )
    return rows


def _by_place(rules: TeamRules, seats: pd.DataFrame) -> list[dict]:
    """Who takes the points and tricks, one row per finishing place that occurs."""
    by_place = []
    for place, label in rules.places.items():
        at = seats[seats["finish"] == place]
        if len(at):
            by_place.append(
                {
                    "finish": label,
                    "seat-rounds": f"{len(at):,}",
                    "card points won": fmt_num(mean_ci(at["card_points_won"])),
                    "tricks won": fmt_num(mean_ci(at["tricks_won"])),
                    "bombs played": fmt_num(mean_ci(at["bombs_played"])),
                    "cards left": fmt_num(mean_ci(at["cards_left"])),
                }
            )
    return by_place


# ---- Nanjing and Tientsin ------------------------------------------------------------------


def _team_rounds_section(rules: TeamRules, rounds: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import score_plot

    score_plot(rounds, figs / "scores.png")
    margin = rounds["score_team0"] - rounds["score_team1"]
    rows = [
        ("team 0 points/round", fmt_pts(mean_ci(rounds["score_team0"]))),
        ("team 1 points/round", fmt_pts(mean_ci(rounds["score_team1"]))),
        ("team 0 - team 1", fmt_pts(mean_ci(margin))),
        (
            f"{rules.victory_name.split()[0]} victories",
            fmt_pct(share_of(rounds[rules.victory], len(rounds))),
        ),
        ("bombs per round", fmt_num(mean_ci(rounds["bombs"]))),
        ("tricks per round", fmt_num(mean_ci(rounds["tricks"]))),
    ]
    if "game" in rounds.columns:
        rows.append(("rounds per game", rounds_per_game(rounds)))
    if "game_over" in rounds.columns:  # played to the end by the simulator (not games read in)
        over = rounds[rounds["game_over"]]
        rows.append(
            (
                f"games won by team 0 (of {len(over):,} decided)",
                fmt_pct(share_of(over["total_team0"] > over["total_team1"], len(over))),
            )
        )
    return [
        "## Rounds",
        "",
        *_figure_table(rows),
        "",
        _image(figs, "scores.png", "round scores"),
        "",
    ]


def _strategy_section(rules: TeamRules, rounds: pd.DataFrame, seats: pd.DataFrame) -> list[str]:
    table = per_group(
        seats, rounds, "strategy", victory=rules.victory, victory_name=rules.victory_name
    )
    return [
        "## Strategies",
        "",
        *markdown_table(table),
        "",
        f"Success: the caller went out first. {rules.victory_name.capitalize()}: its team "
        f"went out {rules.victory_places}.",
        "",
    ]


def team_report(
    rules: TeamRules, rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path
) -> list[str]:
    """Nanjing (§2) and Tientsin (§3): two teams scoring per round."""
    by = "strategy" if seats["strategy"].nunique() > 1 else "seat"
    return [
        *_team_rounds_section(rules, rounds, figs),
        *_strategy_section(rules, rounds, seats),
        *_strength_section(rules, seats, figs),
        *_finish_section(rules, seats, figs, by),
        *_doings_section(rules, seats, figs),
    ]


# ---- Wu Wang ---------------------------------------------------------------------------------


def _player_names(seats: pd.DataFrame) -> dict[int, str]:
    """Seat row -> name: ``player 0 (heuristic)`` .. and ``Minister`` (§4: the King plays it)."""
    own = seats[seats["seat"] < MINISTER].groupby("seat", observed=True)["strategy"].first()
    named = zip(own.index.tolist(), own.tolist(), strict=True)
    return {**{int(p): f"player {p} ({s})" for p, s in named}, MINISTER: "Minister"}


def _wuwang_rounds_section(rounds: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import score_plot

    score_plot(rounds, figs / "scores.png", labels=("King's side", "opponents (each)"))
    n = len(rounds)
    king_side = rounds["first_out"].eq(rounds["king"]) | rounds["first_out"].eq(MINISTER)
    doubles = rounds["double_victory"]
    king, opponent = rounds["score_team0"], rounds["score_team1"]
    rows = [
        ("King's side (King and Minister) points/round", fmt_pts(mean_ci(king))),
        ("each opponent's points/round", fmt_pts(mean_ci(opponent))),
        ("King's side outscores the opponents", fmt_pct(share_of(king > opponent, n))),
        ("tie", fmt_pct(share_of(king == opponent, n))),
        ("the King or the Minister out first", fmt_pct(share_of(king_side, n))),
        ("double victories", fmt_pct(share_of(doubles, n))),
        (
            "... of which the King's side's",
            fmt_pct(share_of(doubles & king_side, int(doubles.sum()))),
        ),
        ("bombs per round", fmt_num(mean_ci(rounds["bombs"]))),
        ("tricks per round", fmt_num(mean_ci(rounds["tricks"]))),
    ]
    if "game" in rounds.columns:
        rows.append(("rounds per game", rounds_per_game(rounds)))
    return [
        "## Rounds",
        "",
        "The King's side is the King and his Minister (RULES.md §4); the "
        "Minister's column is that side's total, the two opponents score their side's "
        "total each.",
        "",
        *_figure_table(rows),
        "",
        _image(figs, "scores.png", "round scores"),
        "",
    ]


def _wuwang_players_section(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import estimate_bars

    names = _player_names(seats)
    n = len(rounds)
    rows, bars = [], []
    for seat, name in names.items():
        column = "score_minister" if seat == MINISTER else f"score_player{seat}"
        points = mean_ci(rounds[column])
        mine = seats[seats["seat"] == seat]
        king = "-" if seat == MINISTER else fmt_pct(share_of(rounds["king"] == seat, n))
        rows.append(
            {
                "player": name,
                "King": king,
                "points/round": fmt_pts(points),
                "out first": fmt_pct(share_of(mine["finish"] == 1, len(mine))),
            }
        )
        bars.append((name, points))
    estimate_bars(
        _bars(bars),
        figs / "players.png",
        ylabel="points per round (95% interval)",
        title=f"Points per round, {n:,} rounds",
    )
    return [
        "## Players",
        "",
        *markdown_table(pd.DataFrame(rows)),
        "",
        "King: share of rounds the player was King (in a game the previous round's first "
        "out, RULES.md §4; drawn at random in a game's first round and in independent "
        "rounds). The Minister is played by the King of the round and scores the King's "
        "side total.",
        "",
        _image(figs, "players.png", "points per player"),
        "",
    ]


def _wuwang_games_section(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import estimate_bars

    names = _player_names(seats)
    over = rounds[rounds["game_over"]]
    games = len(over)
    rows, bars = [], []
    for code, name in [*names.items(), (-1, "tie")]:
        won = share_of(over["winner"] == code, games)
        total = (
            "-"
            if code < 0
            else fmt_pts(
                mean_ci(over["total_minister" if code == MINISTER else f"total_player{code}"])
            )
        )
        rows.append({"": name, "wins": fmt_pct(won), "final total": total})
        bars.append((name, won))
    estimate_bars(
        _bars(bars),
        figs / "winners.png",
        ylabel="% of games won (95% interval)",
        title=f"Who wins, {games:,} games",
        percent=True,
    )
    return [
        "## Games",
        "",
        f"{games:,} games, rounds per game: {rounds_per_game(rounds)}. The "
        "highest total wins (RULES.md §4), the Minister too; a shared highest total is a "
        "tie.",
        "",
        *markdown_table(pd.DataFrame(rows)),
        "",
        _image(figs, "winners.png", "who wins"),
        "",
    ]


def role_section(rules: TeamRules, rounds: pd.DataFrame, seats: pd.DataFrame) -> list[str]:
    """Wu Wang's figures by role (King, opponent, Minister, §4) as Markdown lines."""
    table = per_group(
        seats,
        rounds,
        "role",
        victory=rules.victory,
        victory_name=rules.victory_name,
        side="side",
        order=ROLES,
    )
    barred = table["role"] != "opponent"
    table.loc[barred, ["Grand Tichu calls", "Grand Tichu success"]] = "not allowed (§4)"
    return [
        "## Roles",
        "",
        *markdown_table(table),
        "",
        "Success: the caller went out first. Only the opponents may call Grand Tichu "
        "(after 8 cards); the King may call Tichu for the Minister too (RULES.md §4). "
        f"{rules.victory_name.capitalize()}: its side went out {rules.victory_places}.",
        "",
    ]


def wuwang_report(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    """Wu Wang (§4): three players scored one by one, the King with his Minister."""
    rules = TEAM_RULES["wuwang"]
    games = _wuwang_games_section(rounds, seats, figs) if "game_over" in rounds.columns else []
    return [
        *_wuwang_rounds_section(rounds, figs),
        *_wuwang_players_section(rounds, seats, figs),
        *games,
        *role_section(rules, rounds, seats),
        *_strength_section(rules, seats, figs),
        *_finish_section(rules, seats, figs, "role", ROLES),
        *_doings_section(rules, seats, figs),
    ]


# ---- Grand Seigneur ------------------------------------------------------------------------


def _seigneur_rounds_section(rounds: pd.DataFrame) -> list[str]:
    rows = [
        ("deck", str(rounds["deck"].iloc[0])),
        ("tricks per round", fmt_num(mean_ci(rounds["tricks"]))),
        ("bombs per round", fmt_num(mean_ci(rounds["bombs"]))),
    ]
    if rounds.groupby("game").size().max() > 1:
        rows.append(("rounds per game", rounds_per_game(rounds)))
    return ["## Rounds", "", *_figure_table(rows), ""]


def _rank_section(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import estimate_bars

    players = int(rounds["players"].iloc[0])
    by = "strategy" if seats["strategy"].nunique() > 1 else "player"
    rows, bars = [], []
    for name, g in seats.groupby(by, observed=True, sort=True):
        label = f"player {name}" if by == "player" else str(name)
        rank = mean_ci(g["rank_after"])
        rows.append(
            {
                by: label,
                "player-rounds": f"{len(g):,}",
                "mean rank": fmt_num(rank),
                "first out (Grand Seigneur)": fmt_pct(share_of(g["rank_after"] == 1, len(g))),
                "last": fmt_pct(share_of(g["rank_after"] == players, len(g))),
            }
        )
        bars.append((label, rank))
    estimate_bars(
        _bars(bars),
        figs / "ranks.png",
        ylabel="mean rank, 1 = out first (95% interval)",
        title=f"Finishing rank, {players} players",
        ref=(players + 1) / 2,
        ref_label="equal players",
    )
    return [
        "## Finishing ranks",
        "",
        f"Rank: the finishing order, 1 = out first, {players} = last (RULES.md §5). Equal "
        f"players would share a mean rank of {(players + 1) / 2:g} and go out first in "
        f"{100 / players:.1f}% of rounds.",
        "",
        *markdown_table(pd.DataFrame(rows)),
        "",
        _image(figs, "ranks.png", "finishing ranks"),
        "",
    ]


def _transition_lines(counts: pd.DataFrame, shares: pd.DataFrame) -> list[str]:
    """The matrix in %, each row with its rounds and its widest 95% half-width."""
    head = "| before \\ after | " + " | ".join(str(c) for c in shares.columns) + " | rounds | ± |"
    lines = [head, "|---" * (len(shares.columns) + 3) + "|"]
    for r, row in zip(shares.index, shares.to_numpy(), strict=True):
        n = int(counts.loc[r].sum())
        est = [wilson(int(k), n) for k in counts.loc[r]]
        half = max(((e.high - e.low) / 2 for e in est if e.n), default=np.nan)
        cells = ["-" if np.isnan(v) else f"{100 * v:.0f}" for v in row]
        lines.append(f"| {r} | " + " | ".join(cells) + f" | {n:,} | {100 * half:.1f} |")
    return lines


def _reign_lines(lengths: np.ndarray) -> list[str]:
    labels = [str(k) for k in range(1, TOP_REIGN)] + [f"{TOP_REIGN}+"]
    hits = [lengths == k for k in range(1, TOP_REIGN)] + [lengths >= TOP_REIGN]
    cells = [fmt_pct(share_of(h, lengths.size)) for h in hits]
    return [
        "| reign length | " + " | ".join(labels) + " |",
        "|---" * (len(labels) + 1) + "|",
        "| % of completed reigns | " + " | ".join(cells) + " |",
    ]


def _transition_section(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    from .plots import transition_plot

    counts, shares = transitions(seats)
    table = reigns(rounds)
    lengths = table.loc[~table["censored"], "length"].to_numpy(np.int64)
    s = reign_summary(rounds)
    players = len(shares)
    transition_plot(shares, lengths, figs / "transitions.png", title=f"{players} players")
    rows = [
        ("Grand Seigneur keeps the title (first again)", fmt_pct(s["p_keep"])),
        ("mean completed reign (rounds)", fmt_num(s["mean_reign"])),
        ("memoryless mean, 1 / (1 - P(keep))", f"{s['memoryless_mean']:.3f}"),
        ("completed reigns (censored)", f"{s['reigns']:,} ({s['censored']:,})"),
    ]
    return [
        "## Rank to rank",
        "",
        "From a game's second round on, the previous round's finishing order is the rank: it "
        "seats the players and drives the exchange of best cards (RULES.md §5). Reign: the "
        "rounds a player wins in a row; a reign still running at a game's last round is "
        "censored and left out of the mean. Memoryless: the mean reign if every round were "
        "kept with P(keep) independently.",
        "",
        *_figure_table(rows),
        "",
        *_reign_lines(lengths),
        "",
        "Rank before (rows, 1 = Grand Seigneur) to rank after (columns), % of the row's "
        "rounds; ±: the widest 95% half-width in the row (Wilson), in points.",
        "",
        *_transition_lines(counts, shares),
        "",
        _image(figs, "transitions.png", "rank transitions"),
        "",
    ]


def _no_ranks_section() -> list[str]:
    return [
        "## Rank to rank",
        "",
        "Ranks need games: every round of this run is a game's first (independent rounds, "
        "or games of one round), so no player has a rank before it, nobody exchanges cards "
        "and there is no transition matrix or reign to measure (RULES.md §5). Run "
        '`mode = "games"` with `options.game_rounds` of 2 or more.',
        "",
    ]


def seigneur_report(rounds: pd.DataFrame, seats: pd.DataFrame, figs: Path) -> list[str]:
    """Grand Seigneur (§5): no teams or points; the finishing order is the rank."""
    ranked = seats["rank_before"].notna().any()
    tail = _transition_section(rounds, seats, figs) if ranked else _no_ranks_section()
    return [*_seigneur_rounds_section(rounds), *_rank_section(rounds, seats, figs), *tail]


SECTIONS = {"team": team_report, "wuwang": wuwang_report, "seigneur": seigneur_report}


def _sections(variant: str):
    """The report section the game names (``Game.report``): ``(rounds, seats, figs) ->
    lines``; the team games' with their rules (``TEAM_RULES``)."""
    kind = game_type(variant).report
    return partial(team_report, TEAM_RULES[variant]) if kind == "team" else SECTIONS[kind]


# ---- the report ------------------------------------------------------------------------------


def variant_of(rounds: pd.DataFrame) -> str:
    """The one variant of the tables (tables written before variants existed are Nanjing)."""
    if "variant" not in rounds.columns:
        return DEFAULT_GAME
    found = sorted(map(str, rounds["variant"].unique()))
    if len(found) != 1 or found[0] not in GAMES:
        raise ValueError(
            f"cannot report on variant(s) {', '.join(found)}: one of {', '.join(GAMES)} per run"
        )
    return found[0]


def _header(run_dir: Path, rounds: pd.DataFrame, info: dict, variant: str) -> list[str]:
    if variant in TEAM_RULES:
        title = TEAM_RULES[variant].title
    else:
        title = f"Grand Seigneur, {int(rounds['players'].iloc[0])} players (RULES.md §5)"
    source = [f"{len(rounds):,} rounds"]
    if info.get("layout") == "run":
        source.append(f"{info.get('kind', 'run')} {info.get('run_id')}")
        source += [f"{key} {info[key]}" for key in ("mode", "seed") if info.get(key) is not None]
        source.append(f"{info.get('shards_done')} of {info.get('shards')} shards done")
    if "game" in rounds.columns and rounds.groupby("game").size().max() > 1:
        source.append(f"{rounds['game'].nunique():,} games")
    return [
        f"# Run report: {run_dir.name}",
        "",
        f"{title}.",
        "",
        "Source: " + ", ".join(source) + ". Brackets: 95% intervals (normal for means, "
        f"Wilson for rates). Regenerate: `tichusim report {run_dir}`.",
        "",
    ]


def report(run_dir) -> Path:
    """Write ``report.md`` and ``report/*.png`` into ``run_dir`` (a ``tichusim run`` or
    ``tichusim import`` directory, or a ``simulate --out`` folder) of any variant; return the
    path of the Markdown file."""
    data = load(run_dir, rounds_columns=ROUND_COLUMNS, seats_columns=SEAT_COLUMNS)
    rounds, seats = data.rounds, data.seats
    if not len(rounds):
        raise ValueError(f"{run_dir}: the run has no rounds")
    variant = variant_of(rounds)
    run_dir = Path(run_dir)
    figs = run_dir / FIGURES
    figs.mkdir(exist_ok=True)
    lines = [
        *_header(run_dir, rounds, data.info, variant),
        *_sections(variant)(rounds, seats, figs),
    ]
    out = run_dir / REPORT
    out.write_text("\n".join(lines))
    return out
