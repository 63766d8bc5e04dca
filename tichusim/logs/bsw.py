"""Brettspielwelt's Tichu logs (``.tch``, one game each) read as game records, and written.

A BSW log lists each round's first 8 cards per seat, the 14 dealt, the Grand Tichu calls, the
passing (``Schupfen``), then the play line by line, and the score::

    ---------------Gr.Tichukarten------------------
    (0)name BB S9 G6 S5 R4 B4 G3 S3              the first 8 cards of seats 0..3
    ---------------Startkarten------------------
    (0)name GA BB SB S9 S7 B7 G6 S5 R4 B4 G3 S3 G2 B2
    Grosses Tichu: (1)name
    Schupfen:
    (0)name gibt: A: S7 - B: S9 - C: B7 -        to seats 1, 2, 3 (i + 1, i + 2, i + 3)
    BOMBE: (0)name                               who holds a bomb (not read)
    ---------------Rundenverlauf------------------
    (3)name: Ma                                  a play
    Wunsch:2                                     the Mah Jong's wish
    (0)name passt.                               a pass
    Tichu: (2)name
    Drache an: (0)name                           the Dragon's trick given
    Ergebnis: 0 - 400                            the score of seats 0 + 2, then 1 + 3

Cards are a suit, R, G, B or S, and a rank 2..10, B (Jack), D (Queen), K, A; the specials Ma,
Hu (the Dog), Ph, Dr. The suits are read as Star (R), Jade (G), Pagoda (B) and Sword (S):
suits are labels (RULES.md §1), and any one-to-one reading plays the same.

What real logs do, and how it is read:

- the trick's winner is logged as passing when the trick is taken (not once it is out):
  that line is not a pass, and is left out;
- a bomb may be logged after every other seat passed and before that line: a bomb on the
  trick, out of turn (§2.9), by whoever played it;
- a Mah Jong without a ``Wunsch:`` line (alone or in a straight) makes no wish (§2.11);
- a ``Grosses Tichu`` line may be repeated, a name may be empty, a wish may read
  ``Wunsch:10``, names are UTF-8 or Latin-1, a round header may be doubled;
- a game may stop mid-round: that round has no score and is reported, not read.

The first drawer (§2.15) is seat 0 in the first round, then the previous round's first seat
out. A round that cannot be read is reported with its line and why (``Problem``); the engine
checks the others when it plays them (``tichusim.games.steps.Round.from_record``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards import notation as cards
from ..games.record import Action, Deal, GameRecord, RoundRecord

__all__ = ["Problem", "Read", "decode", "looks_like_tch", "read_tch", "write_tch"]

_HEADER = re.compile(r"^-{3,}\s*(Gr\.Tichukarten|Startkarten|Rundenverlauf)\s*-{3,}\s*$")
_SEAT = re.compile(r"^\((\d)\)")
_PASS = re.compile(r"^\((\d)\)(.*) passt\.\s*$")
_CALLER = re.compile(r"^(Grosses Tichu|Tichu|Drache an|BOMBE):\s*(.*)$")
_WISH = re.compile(r"^Wunsch:\s*(\S*)\s*$")
_RESULT = re.compile(r"^Ergebnis:\s*(-?\d+)\s*-\s*(-?\d+)\s*$")

_SUITS = {"G": "j", "S": "s", "B": "p", "R": "t"}  # BSW's suit letter -> ours
_RANKS = {"B": "J", "D": "Q", "10": "T"} | {r: r for r in "23456789KA"}
_SPECIALS = {"ma": cards.MAH_JONG, "hu": cards.DOG, "ph": cards.PHOENIX, "dr": cards.DRAGON}


@dataclass(frozen=True)
class Problem:
    """A round that could not be read: the file, the line and why."""

    source: str
    line: int
    why: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.why}"


@dataclass
class Read:
    """A log read: the game (its readable rounds) and the rounds it could not read."""

    game: GameRecord
    problems: list[Problem] = field(default_factory=list)


def decode(data: bytes) -> str:
    """A log's text: UTF-8, else Latin-1 (names with umlauts are met in both)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def looks_like_tch(text: str) -> bool:
    """Whether ``text`` starts as a BSW Tichu log does."""
    for line in text.splitlines()[:5]:
        if _HEADER.match(line.strip()):
            return True
    return False


def card(token: str) -> int:
    """One BSW card (``GA``, ``S10``, ``BB``, ``Hu``) as a one-card mask."""
    low = token.lower()
    if low in _SPECIALS:
        return _SPECIALS[low]
    suit, rank = token[:1].upper(), token[1:].upper()
    if suit not in _SUITS or rank not in _RANKS:
        raise ValueError(f"unknown card {token!r}")
    return cards.parse(_RANKS[rank] + _SUITS[suit])


def _cards(text: str) -> int:
    mask = 0
    for token in text.split():
        bit = card(token)
        if mask & bit:
            raise ValueError(f"card {token!r} twice")
        mask |= bit
    return mask


def _bsw_card(bit: int) -> str:
    for name, mask in _SPECIALS.items():
        if bit == mask:
            return name.capitalize()
    text = cards.format(bit)
    rank = {"J": "B", "Q": "D", "T": "10"}.get(text[0], text[0])
    suit = next(k for k, v in _SUITS.items() if v == text[1])
    return suit + rank


def _seat_line(line: str) -> tuple[int, str]:
    """``(i)name rest`` -> ``(i, name rest)``."""
    m = _SEAT.match(line)
    if m is None:
        raise ValueError(f"a seat line '(i)name ...', not {line!r}")
    return int(m.group(1)), line[m.end() :]


def _caller(text: str) -> int:
    m = _SEAT.match(text.strip())
    if m is None:
        raise ValueError(f"a seat '(i)name', not {text!r}")
    return int(m.group(1))


class _Round:
    """One round's lines as they are read, turned into a record at its score line."""

    def __init__(self, source: str, line: int, first_drawer: int):
        self.source = source
        self.line = line  # where its header stands
        self.first_drawer = first_drawer
        self.first: dict[int, int] = {}
        self.hands: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.section = "first"
        self.grand: list[tuple[int, int]] = []  # (seat, line)
        self.actions: list[tuple[Action, int]] = []
        self.gives = 0
        self.score: tuple[int, int] | None = None
        # the trick in play, followed as far as the log's quirks need it
        self.held = [14] * 4
        self.top = -1  # the seat of the trick's last play, -1 when none is in play
        self.passed = 0  # seats that passed on it
        self.wish_due = False  # a Mah Jong was played and its wish line is not read yet
        self.out_first = -1

    def hand_line(self, rest: str, seat: int, size: int) -> None:
        """A seat's name and its ``size`` cards (its first 8, or the 14 dealt)."""
        tokens = rest.split()
        if len(tokens) < size:
            raise ValueError(f"seat {seat}: {size} cards, not {rest.strip()!r}")
        self.names.setdefault(seat, " ".join(tokens[:-size]))
        (self.first if size == 8 else self.hands)[seat] = _cards(" ".join(tokens[-size:]))

    def add(self, action: Action, line: int) -> None:
        self.actions.append((action, line))

    def play(self, seat: int, mask: int, line: int) -> None:
        self._wish_none()
        holders = {s for s in range(4) if self.held[s] > 0}
        kind = "play"
        others_passed = self.top >= 0 and holders - {self.top} <= _seats(self.passed)
        if self.top == seat and others_passed:
            kind = "bomb"  # on its own trick that the others passed, before taking it (§2.9)
        self.add(Action(seat, kind, mask), line)
        self.held[seat] -= bin(mask).count("1")
        if self.held[seat] == 0 and self.out_first < 0:
            self.out_first = seat
        if mask & cards.MAH_JONG:
            self.wish_due = True
        if mask == cards.DOG:
            self.top, self.passed = -1, 0  # the lead goes on at once (§2.10)
        else:
            self.top, self.passed = seat, 0

    def passes(self, seat: int, line: int) -> None:
        self._wish_none()
        if seat == self.top:  # the winner takes the trick: logged as its pass
            self.top, self.passed = -1, 0
            return
        self.passed |= 1 << seat
        self.add(Action(seat, "pass"), line)

    def _wish_none(self) -> None:
        """A Mah Jong played without a wish line made no wish (§2.11)."""
        if self.wish_due:
            self.wish_due = False
            seat, line = next((a.seat, n) for a, n in reversed(self.actions) if a.kind != "tichu")
            at = max(i for i, (a, _) in enumerate(self.actions) if a.kind in ("play", "bomb"))
            self.actions.insert(at + 1, (Action(seat, "wish", value=0), line))

    def wish(self, rank: int, line: int) -> None:
        if not self.wish_due:
            raise ValueError("a wish without the Mah Jong (§2.11)")
        self.wish_due = False
        at = max(i for i, (a, _) in enumerate(self.actions) if a.kind in ("play", "bomb"))
        self.actions.insert(at + 1, (Action(self.actions[at][0].seat, "wish", value=rank), line))

    def record(self) -> RoundRecord:
        self._wish_none()
        if len(self.first) != 4 or len(self.hands) != 4:
            raise ValueError("the deal is not whole: 8 and 14 cards for each of seats 0..3")
        calls = []
        seen = set()
        for seat, line in self.grand:  # a repeated line is one call; in the order asked
            if seat not in seen:
                seen.add(seat)
                calls.append((Action(seat, "grand_tichu"), line))
        calls.sort(key=lambda c: (c[0].seat - self.first_drawer) % 4)
        if self.gives != 4:
            raise ValueError(f"{self.gives} seats pass cards, not 4 (§2.4)")
        listed = calls + self.actions
        deal = Deal(
            tuple(self.hands[s] for s in range(4)),
            tuple(self.first[s] for s in range(4)),
            self.first_drawer,
        )
        return RoundRecord(
            deal,
            tuple(a for a, _ in listed),
            "nanjing",
            score=self.score,
            source=self.source,
            lines=tuple(n for _, n in listed),
        )


def _seats(mask: int) -> set[int]:
    return {s for s in range(4) if mask >> s & 1}


def read_tch(text: str, source: str = "") -> Read:
    """The rounds of a BSW log (``text``, decoded: ``decode``) as a game record, with the
    rounds that could not be read (``Problem``). ``ValueError`` when no round is there at
    all (not a BSW log)."""
    rounds: list[RoundRecord] = []
    problems: list[Problem] = []
    names: dict[int, str] = {}
    current: _Round | None = None
    broken = False
    first_drawer = 0
    lines = text.splitlines()

    def close(end: int) -> None:
        nonlocal current, broken, first_drawer
        if current is None:
            return
        if current.score is None and not broken:
            problems.append(Problem(source, end, "the round stops before its score (cut off)"))
        elif not broken:
            try:
                rounds.append(current.record())
                names.update({s: n for s, n in current.names.items() if s not in names})
            except ValueError as exc:
                problems.append(Problem(source, current.line, str(exc)))
        if current.out_first >= 0:
            first_drawer = current.out_first  # §2.15
        current = None
        broken = False

    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header and header.group(1) == "Gr.Tichukarten":
            if current is not None and not current.first and current.section == "first":
                current.line = number  # a doubled header
                continue
            close(number - 1)
            current = _Round(source, number, first_drawer)
            continue
        if current is None or broken:
            continue
        try:
            _line(current, header.group(1) if header else None, line, number)
        except ValueError as exc:
            problems.append(Problem(source, number, str(exc)))
            broken = True
    close(len(lines))
    if not rounds and not problems:
        raise ValueError(f"{source or 'the log'}: no Tichu round in it (not a BSW .tch log)")
    players = tuple(names.get(s, "") for s in range(4))
    return Read(GameRecord(tuple(rounds), players, "nanjing", (), source), problems)


def _line(r: _Round, header: str | None, line: str, number: int) -> None:
    """Read one line of round ``r``."""
    if header == "Startkarten":
        r.section = "hands"
        return
    if header == "Rundenverlauf":
        r.section = "play"
        return
    if r.score is not None:
        return  # after the score, before the next round: nothing of the round
    result = _RESULT.match(line)
    if result:
        r._wish_none()
        r.score = (int(result.group(1)), int(result.group(2)))
        return
    called = _CALLER.match(line)
    if called:
        what, who = called.groups()
        if what == "BOMBE":
            return  # who holds a bomb: the deal says so
        seat = _caller(who)
        if what == "Grosses Tichu":
            r.grand.append((seat, number))
        elif what == "Tichu":
            r.add(Action(seat, "tichu"), number)
        else:
            r._wish_none()
            r.add(Action(_trick_winner(r), "dragon", value=seat), number)
        return
    wish = _WISH.match(line)
    if wish:
        text = wish.group(1).upper()
        rank = _RANKS.get(text)
        if rank is None:
            raise ValueError(f"a wish for a rank 2..A, not {wish.group(1)!r}")
        r.wish(cards.RANK_CHARS.index(rank) + 2, number)
        return
    if line == "Schupfen:":
        r.section = "passing"
        return
    if r.section in ("first", "hands"):
        seat, rest = _seat_line(line)
        r.hand_line(rest, seat, 8 if r.section == "first" else 14)
        return
    if r.section == "passing" and " gibt: " in line:
        seat, rest = _seat_line(line)
        r.add(_gives(seat, rest.split(" gibt: ", 1)[1], r.names), number)
        r.gives += 1
        return
    passed = _PASS.match(line)
    if passed and r.section == "play":
        r.passes(int(passed.group(1)), number)
        return
    if r.section == "play":
        seat, rest = _seat_line(line)
        name, colon, shown = rest.rpartition(": ")
        if not colon:
            raise ValueError(f"a play '(i)name: cards', not {line!r}")
        r.play(seat, _cards(shown), number)
        return
    raise ValueError(f"a line the log format has no place for: {line!r}")


def _trick_winner(r: _Round) -> int:
    """The seat whose Dragon won the trick: the last play's."""
    for action, _ in reversed(r.actions):
        if action.kind in ("play", "bomb"):
            return action.seat
    raise ValueError("the Dragon's trick given before any play (§2.12)")


def _gives(seat: int, text: str, names: dict[int, str]) -> Action:
    """``A: S7 - B: S9 - C: B7 -``: one card to each of seats i + 1, i + 2, i + 3, in that
    order; by the receivers' names where the four names are known and differ."""
    parts = [p for p in (x.strip() for x in text.split(" - ")) if p and p != "-"]
    parts = [p.rstrip(" -").strip() for p in parts]
    if len(parts) != 3:
        raise ValueError(f"seat {seat} passes 3 cards, one to each other seat (§2.4)")
    seats = [(seat + d) % 4 for d in (1, 2, 3)]
    named = {name: s for s, name in names.items() if name}
    receivers = [p.rpartition(":")[0].strip() for p in parts]
    if len(named) == 4 and set(receivers) == {names[s] for s in seats}:
        seats = [named[r] for r in receivers]
    gifts = tuple((to, card(p.split()[-1])) for to, p in zip(seats, parts, strict=True))
    return Action(seat, "give", gifts=gifts)


def write_tch(game: GameRecord) -> str:
    """A Nanjing game record as a BSW log (the round's names from ``game.players``)."""
    if game.variant != "nanjing":
        raise ValueError(f"a BSW log holds Nanjing games, not {game.variant}")
    names = [game.players[s] if s < len(game.players) else f"seat{s}" for s in range(4)]

    def who(s: int) -> str:
        return f"({s}){names[s]}"

    def shown(mask: int) -> str:
        return " ".join(_bsw_card(c) for c in cards.cards_of(mask))

    out: list[str] = []
    for r in game.rounds:
        out.append("---------------Gr.Tichukarten------------------")
        out += [f"{who(s)} {shown(r.deal.first[s])} " for s in range(4)]
        out.append("---------------Startkarten------------------")
        out += [f"{who(s)} {shown(r.deal.hands[s])} " for s in range(4)]
        play = [a for a in r.actions if a.kind not in ("grand_tichu", "give")]
        out += [f"Grosses Tichu: {who(a.seat)}" for a in r.actions if a.kind == "grand_tichu"]
        gives = [a for a in r.actions if a.kind == "give"]
        before = [a for a in r.actions[: r.actions.index(gives[0])] if a.kind == "tichu"]
        out += [f"Tichu: {who(a.seat)}" for a in before]
        out.append("Schupfen:")
        for a in sorted(gives, key=lambda g: g.seat):
            to = dict(a.gifts)
            parts = [f"{names[(a.seat + d) % 4]}: {shown(to[(a.seat + d) % 4])}" for d in (1, 2, 3)]
            out.append(f"{who(a.seat)} gibt: " + " - ".join(parts) + " - ")
        out.append("---------------Rundenverlauf------------------")
        out += _play_lines([a for a in play if a not in before], who, shown)
        score = r.score if r.score is not None else (0, 0)
        out.append(f"Ergebnis: {score[0]} - {score[1]}")
    return "\n".join(out) + "\n"


def _play_lines(
    actions: list[Action], who: Callable[[int], str], shown: Callable[[int], str]
) -> list[str]:
    """The play as BSW logs it: the winner's pass line when it takes the trick (while it holds
    cards; after the bomb windows, so a bomb on the passed trick comes before it), no line
    for the Dog's lead or for no wish."""
    lines = []
    held = [14] * 4
    top, passed = -1, 0
    taking = -1  # the winner of a trick every other seat passed, until it takes it
    for a in actions:
        if taking >= 0 and (a.kind == "dragon" or (a.kind == "play" and a.seat == taking)):
            lines.append(f"{who(taking)} passt.")
            taking = -1
        if a.kind in ("play", "bomb"):
            taking = -1
            lines.append(f"{who(a.seat)}: {shown(a.cards)} ")
            held[a.seat] -= bin(a.cards).count("1")
            top, passed = (-1, 0) if a.cards == cards.DOG else (a.seat, 0)
        elif a.kind == "pass":
            lines.append(f"{who(a.seat)} passt.")
            passed |= 1 << a.seat
            holders = {s for s in range(4) if held[s] > 0} - {top}
            if top >= 0 and holders <= _seats(passed):
                taking = top if held[top] > 0 else -1
                top, passed = -1, 0
        elif a.kind == "tichu":
            lines.append(f"Tichu: {who(a.seat)}")
        elif a.kind == "wish":
            if a.value:
                lines.append(f"Wunsch:{_bsw_rank(a.value)}")
        elif a.kind == "dragon":
            lines.append(f"Drache an: {who(a.value)}")
    return lines


def _bsw_rank(rank: int) -> str:
    text = cards.RANK_CHARS[rank - 2]
    return {"J": "B", "Q": "D", "T": "10"}.get(text, text)
