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
_CALLER = re.compile(r"^(Grosses Tichu|Tichu|Drache an|BOMBE):\s*(.*)$")
_WISH = re.compile(r"^Wunsch:\s*(\S*)\s*$")
_RESULT = re.compile(r"^Ergebnis:\s*(-?\d+)\s*-\s*(-?\d+)\s*$")

_SUITS = {"G": "j", "S": "s", "B": "p", "R": "t"}  # BSW's suit letter -> ours
_RANKS = {"B": "J", "D": "Q", "10": "T"} | {r: r for r in "23456789KA"}
_SPECIALS = {"ma": cards.MAH_JONG, "hu": cards.DOG, "ph": cards.PHOENIX, "dr": cards.DRAGON}


# every card as BSW writes it, and its mask: a token is looked up, never parsed (``card``
# reads the other spellings); the reader meets some 200 tokens a round
_CARD = {
    suit + rank: cards.parse(ours + _SUITS[suit])
    for suit in _SUITS
    for rank, ours in _RANKS.items()
} | {name.capitalize(): mask for name, mask in _SPECIALS.items()}


@dataclass(frozen=True)
class Problem:
    """A round (or a file) that could not be read or played: the file, the line (0: the file
    as a whole, or a record without lines), why, and the round's number in the file (1 the
    first; 0: not a round's)."""

    source: str
    line: int
    why: str
    round: int = 0

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.why}"


@dataclass
class Read:
    """A log read: the game (its readable rounds), the rounds it could not read, and where
    each round read stands in the file (``rounds_at``, by the game's rounds: its number in
    the file, 1 the first, unread rounds counted, and its first line, 0 when unknown)."""

    game: GameRecord
    problems: list[Problem] = field(default_factory=list)
    rounds_at: list[tuple[int, int]] = field(default_factory=list)


def decode(data: bytes) -> str:
    """A log's text: UTF-8, else Latin-1 (names with umlauts are met in both)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def looks_like_tch(text: str) -> bool:
    """Whether ``text`` starts as a BSW Tichu log does."""
    for line in text[:4096].splitlines()[:5]:
        if _HEADER.match(line.strip()):
            return True
    return False


def card(token: str) -> int:
    """One BSW card (``GA``, ``S10``, ``BB``, ``Hu``) as a one-card mask."""
    bit = _CARD.get(token)
    if bit is not None:
        return bit
    low = token.lower()
    if low in _SPECIALS:
        return _SPECIALS[low]
    suit, rank = token[:1].upper(), token[1:].upper()
    if suit not in _SUITS or rank not in _RANKS:
        raise ValueError(f"unknown card {token!r}")
    return cards.parse(_RANKS[rank] + _SUITS[suit])


def _cards(tokens: list[str]) -> int:
    """The mask of ``tokens``, each a card once."""
    try:
        mask = sum(map(_CARD.__getitem__, tokens))
    except KeyError:
        mask = sum(map(card, tokens))
    if mask.bit_count() != len(tokens):  # a card twice (a carry): name it
        mask = 0
        for token in tokens:
            if mask & card(token):
                raise ValueError(f"card {token!r} twice")
            mask |= card(token)
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
    return _seat(int(m.group(1))), line[m.end() :]


def _seat(seat: int) -> int:
    if seat > 3:
        raise ValueError(f"seat {seat}: a BSW game seats 0..3")
    return seat


def _caller(text: str) -> int:
    m = _SEAT.match(text.strip())
    if m is None:
        raise ValueError(f"a seat '(i)name', not {text!r}")
    return _seat(int(m.group(1)))


_PASSES = tuple(Action(s, "pass") for s in range(4))  # one of each: an Action is a value
_new = tuple.__new__  # an Action made without its constructor's Python frame
_SEATS = {f"({s})": s for s in range(4)}  # a seat's line begins so
_TO = [tuple((s + d) % 4 for d in (1, 2, 3)) for s in range(4)]  # whom a seat's passing reaches
_MAH_JONG, _DOG = cards.MAH_JONG, cards.DOG
FIRST, HANDS, PASSING, PLAY = range(4)  # a round's sections, in the log's order


class _Round:
    """One round's lines as they are read, turned into a record at its score line."""

    def __init__(self, source: str, line: int, first_drawer: int, number: int):
        self.source = source
        self.line = line  # where its header stands
        self.number = number  # its number in the file, 1 the first
        self.first_drawer = first_drawer
        self.first: dict[int, int] = {}
        self.hands: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.section = FIRST
        self.grand: list[tuple[int, int]] = []  # (seat, line)
        self.actions: list[Action] = []
        self.lines: list[int] = []  # each action's line
        self.gives = 0
        self.score: tuple[int, int] | None = None
        # the trick in play, followed as far as the log's quirks need it
        self.held = [14] * 4
        self.holding = 0b1111  # the seats holding cards, a bit each
        self.top = -1  # the seat of the trick's last play, -1 when none is in play
        self.passed = 0  # seats that passed on it, a bit each
        self.wish_due = False  # a Mah Jong was played and its wish line is not read yet
        self.out_first = -1

    def hand_line(self, rest: str, seat: int, size: int) -> None:
        """A seat's name and its ``size`` cards (its first 8, or the 14 dealt)."""
        tokens = rest.split()
        if len(tokens) < size:
            raise ValueError(f"seat {seat}: {size} cards, not {rest.strip()!r}")
        self.names.setdefault(seat, " ".join(tokens[:-size]))
        (self.first if size == 8 else self.hands)[seat] = _cards(tokens[-size:])

    def add(self, action: Action, line: int) -> None:
        self.actions.append(action)
        self.lines.append(line)

    def play(self, seat: int, mask: int, line: int) -> None:
        if self.wish_due:
            self._wish_none()
        top = self.top
        # on its own trick that the others holding cards passed, before taking it: a bomb (§2.9)
        bomb = top == seat and top >= 0 and not self.holding & ~(1 << top) & ~self.passed
        self.actions.append(Action(seat, "bomb" if bomb else "play", mask))
        self.lines.append(line)
        held = self.held[seat] = self.held[seat] - mask.bit_count()
        if held <= 0:
            self.holding &= ~(1 << seat)
            if held == 0 and self.out_first < 0:
                self.out_first = seat
        if mask & cards.MAH_JONG:
            self.wish_due = True
        if mask == cards.DOG:
            self.top, self.passed = -1, 0  # the lead goes on at once (§2.10)
        else:
            self.top, self.passed = seat, 0

    def passes(self, seat: int, line: int) -> None:
        if self.wish_due:
            self._wish_none()
        if seat == self.top:  # the winner takes the trick: logged as its pass
            self.top, self.passed = -1, 0
            return
        self.passed |= 1 << seat
        self.actions.append(_PASSES[seat])
        self.lines.append(line)

    def _played(self) -> int:
        """The index of the last play or bomb."""
        return max(i for i, a in enumerate(self.actions) if a.kind in ("play", "bomb"))

    def _wish_none(self) -> None:
        """A Mah Jong played without a wish line made no wish (§2.11)."""
        if self.wish_due:
            self.wish_due = False
            at = next(
                i for i in reversed(range(len(self.actions))) if self.actions[i].kind != "tichu"
            )
            seat, line = self.actions[at].seat, self.lines[at]
            played = self._played()
            self.actions.insert(played + 1, Action(seat, "wish", value=0))
            self.lines.insert(played + 1, line)

    def wish(self, rank: int, line: int) -> None:
        if not self.wish_due:
            raise ValueError("a wish without the Mah Jong (§2.11)")
        self.wish_due = False
        at = self._played()
        self.actions.insert(at + 1, Action(self.actions[at].seat, "wish", value=rank))
        self.lines.insert(at + 1, line)

    def record(self) -> RoundRecord:
        self._wish_none()
        if len(self.first) != 4 or len(self.hands) != 4:
            raise ValueError("the deal is not whole: 8 and 14 cards for each of seats 0..3")
        calls = []
        seen = set()
        for seat, line in self.grand:  # a repeated line is one call; in the order asked
            if seat not in seen:
                seen.add(seat)
                calls.append((seat, line))
        calls.sort(key=lambda c: (c[0] - self.first_drawer) % 4)
        if self.gives != 4:
            raise ValueError(f"{self.gives} seats pass cards, not 4 (§2.4)")
        deal = Deal(
            (self.hands[0], self.hands[1], self.hands[2], self.hands[3]),
            (self.first[0], self.first[1], self.first[2], self.first[3]),
            self.first_drawer,
        )
        return RoundRecord(
            deal,
            (*(Action(seat, "grand_tichu") for seat, _ in calls), *self.actions),
            "nanjing",
            score=self.score,
            source=self.source,
            lines=(*(line for _, line in calls), *self.lines),
        )


def _seats(mask: int) -> set[int]:
    return {s for s in range(4) if mask >> s & 1}


def read_tch(text: str, source: str = "") -> Read:
    """The rounds of a BSW log (``text``, decoded: ``decode``) as a game record, with the
    rounds that could not be read (``Problem``). ``ValueError`` when no round is there at
    all (not a BSW log)."""
    rounds: list[RoundRecord] = []
    rounds_at: list[tuple[int, int]] = []
    problems: list[Problem] = []
    names: dict[int, str] = {}
    current: _Round | None = None
    broken = False
    first_drawer = 0
    number = 0  # rounds begun
    lines = text.splitlines()

    def close(end: int) -> None:
        nonlocal current, broken, first_drawer
        if current is None:
            return
        if current.score is None and not broken:
            problems.append(
                Problem(source, end, "the round stops before its score (cut off)", current.number)
            )
        elif not broken:
            try:
                rounds.append(current.record())
                rounds_at.append((current.number, current.line))
                names.update({s: n for s, n in current.names.items() if s not in names})
            except ValueError as exc:
                problems.append(Problem(source, current.line, str(exc), current.number))
        if current.out_first >= 0:
            first_drawer = current.out_first  # §2.15
        current = None
        broken = False

    at, end = 0, len(lines)
    while at < end:
        line = lines[at].strip()
        at += 1  # the line's number
        if not line:
            continue
        header = _HEADER.match(line) if line[0] == "-" else None
        if header and header.group(1) == "Gr.Tichukarten":
            if current is not None and not current.first and current.section == FIRST:
                current.line = at  # a doubled header
                continue
            close(at - 1)
            number += 1
            current = _Round(source, at, first_drawer, number)
            continue
        if current is None or broken:
            continue
        if line[0] == "(" and current.section == PLAY and current.score is None:
            stop, error = _plays(current, lines, at - 1)
            if error is not None:
                problems.append(Problem(source, stop + 1, error, current.number))
                broken = True
                at = stop + 1
                continue
            if stop >= at:  # lines read: go on from the first that is no play or pass
                at = stop
                continue
        try:
            _line(current, header.group(1) if header else None, line, at)
        except ValueError as exc:
            problems.append(Problem(source, at, str(exc), current.number))
            broken = True
    close(len(lines))
    if not rounds and not problems:
        raise ValueError(f"{source or 'the log'}: no Tichu round in it (not a BSW .tch log)")
    players = tuple(names.get(s, "") for s in range(4))
    return Read(GameRecord(tuple(rounds), players, "nanjing", (), source), problems, rounds_at)


def _plays(r: _Round, lines: list[str], i: int) -> tuple[int, str | None]:
    """Read the plays and passes of round ``r`` from ``lines[i]`` on, up to the first line
    that is neither: its index, and why it could not be read if a play failed there. Most of
    a log, so read here in one loop, the trick's state in local names (``_Round.play`` and
    ``passes`` say the same one line at a time)."""
    n = len(lines)
    actions, numbers, held = r.actions, r.lines, r.held
    holding, top, passed, wish_due = r.holding, r.top, r.passed, r.wish_due
    error = None
    try:
        while i < n:
            line = lines[i].strip()
            i += 1  # the line's number
            seat = _SEATS.get(line[:3], -1)
            if seat < 0:
                if not line:
                    continue
                i -= 1  # no seat's line, or a line ``_line`` says what is wrong with
                break
            if wish_due:  # the Mah Jong's wish line did not come: no wish (§2.11)
                r.wish_due = True
                r._wish_none()
                wish_due = False
            if line.endswith(" passt."):
                if seat == top:  # the winner takes the trick: logged as its pass
                    top, passed = -1, 0
                else:
                    passed |= 1 << seat
                    actions.append(_PASSES[seat])
                    numbers.append(i)
                continue
            _, colon, shown = line.rpartition(": ")
            if not colon:
                i -= 1
                break
            mask = _CARD.get(shown) or _cards(shown.split())
            # on its own trick that the others holding cards passed, before taking it (§2.9)
            bomb = top == seat and not holding & ~(1 << seat) & ~passed
            actions.append(_new(Action, (seat, "bomb" if bomb else "play", mask, (), 0)))
            numbers.append(i)
            left = held[seat] = held[seat] - mask.bit_count()
            if left <= 0:
                holding &= ~(1 << seat)
                if left == 0 and r.out_first < 0:
                    r.out_first = seat
            if mask & _MAH_JONG:
                wish_due = True
            top, passed = (-1, 0) if mask == _DOG else (seat, 0)  # the Dog: a new lead
    except ValueError as exc:
        i -= 1
        error = str(exc)
    r.holding, r.top, r.passed, r.wish_due = holding, top, passed, wish_due
    return i, error


def _line(r: _Round, header: str | None, line: str, number: int) -> None:
    """Read one line of round ``r``."""
    if r.score is not None and header is None:
        return  # after the score, before the next round: nothing of the round
    if line[0] == "(" and line[2:3] == ")" and line[1].isdecimal():
        # a seat's line (most of a log): nothing else starts so
        seat, rest = _seat(int(line[1])), line[3:]
        section = r.section
        if section == PLAY:
            if line.endswith(" passt."):
                r.passes(seat, number)
                return
            name, colon, shown = rest.rpartition(": ")
            if not colon:
                raise ValueError(f"a play '(i)name: cards', not {line!r}")
            r.play(seat, _cards(shown.split()), number)
            return
        if section == FIRST or section == HANDS:
            r.hand_line(rest, seat, 8 if section == FIRST else 14)
            return
        if " gibt: " in rest:
            r.add(_gives(seat, rest.split(" gibt: ", 1)[1], r.names), number)
            r.gives += 1
            return
        raise ValueError(f"a line the log format has no place for: {line!r}")
    if header == "Startkarten":
        r.section = HANDS
        return
    if header == "Rundenverlauf":
        r.section = PLAY
        return
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
        r.section = PASSING
        return
    if r.section != PASSING or " gibt: " in line:  # not a seat's line, where one belongs
        _seat_line(line)
    raise ValueError(f"a line the log format has no place for: {line!r}")


def _trick_winner(r: _Round) -> int:
    """The seat whose Dragon won the trick: the last play's."""
    for action in reversed(r.actions):
        if action.kind in ("play", "bomb"):
            return action.seat
    raise ValueError("the Dragon's trick given before any play (§2.12)")


def _gives(seat: int, text: str, names: dict[int, str]) -> Action:
    """``A: S7 - B: S9 - C: B7 -``: one card to each of seats i + 1, i + 2, i + 3, in that
    order; by the receivers' names where the four names are known and differ."""
    parts = text.split(" - ")
    if len(parts) == 3 and parts[2].endswith(" -"):  # as BSW writes it: each card looked up
        shown = (parts[0], parts[1], parts[2][:-2])
        bits = [_CARD.get(part[part.rfind(" ") + 1 :], 0) for part in shown]
        if all(bits):
            seats = _receivers(seat, [part.rpartition(":")[0].strip() for part in shown], names)
            return _new(Action, (seat, "give", 0, tuple(zip(seats, bits, strict=True)), 0))
    parts = [p for p in (x.strip() for x in parts) if p and p != "-"]
    parts = [p.rstrip(" -").strip() for p in parts]
    if len(parts) != 3:
        raise ValueError(f"seat {seat} passes 3 cards, one to each other seat (§2.4)")
    seats = _receivers(seat, [p.rpartition(":")[0].strip() for p in parts], names)
    gifts = tuple((to, card(p.split()[-1])) for to, p in zip(seats, parts, strict=True))
    return Action(seat, "give", gifts=gifts)


def _receivers(seat: int, receivers: list[str], names: dict[int, str]) -> tuple[int, ...]:
    """The seats a passing's parts go to: i + 1, i + 2, i + 3, or by the receivers' names
    where the four names are known and differ."""
    seats = _TO[seat]
    named = {name: s for s, name in names.items() if name}
    if len(named) == 4 and set(receivers) == {names[s] for s in seats}:
        return tuple(named[r] for r in receivers)
    return seats


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
