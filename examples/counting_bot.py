"""A bot that reads only the View's documented fields (docs/view.md), passes by the rule
books' sides and learns from the rounds it has played.

* Passing (RULES.md §2.1, §2.4), unless it called Grand Tichu: its best card below the
  Phoenix and the Dragon to the partner, its lowest even-ranked card to
  the right-hand opponent (the next seat, who plays after it) and its lowest odd-ranked one
  to the left-hand opponent: the convention "even to the right" typed in by its name.
* Play (§2.8): it never overtakes its partner's play, unless it goes out by it; it counts
  the Aces and the Dragon still unseen (the ``history`` of plays and its own hand) and leads
  its single Aces when none can beat them.
  Every other decision is ``expert``'s.
* Tichu (§2.3): it calls when ``expert`` would, but at each round's end (``round_over``) it
  learns whether its call came off, and once fewer than 60% of its calls have, it calls only
  with at least ``strength`` sure trick-takers (the Dragon, the Phoenix, Aces, bombs).

    tichusim compare agent:examples/counting_bot.py:CountingBot expert --deals 200

It shows the API, not a strong player: ``expert`` beats it by about 40 points per round.

What it learns depends on the order of the rounds it hears: a run that splits the rounds
among workers or shards gives each its own copy of the bot, so compare it with one worker.
"""

from tichusim import Agent, strategy
from tichusim.cards import DECK, DRAGON, PHOENIX, cards_of
from tichusim.cards.combos import Play

ACE = 14
SUIT_BITS = 16  # a card's rank is its bit's place in its suit's 16-bit lane (docs/cards.md)


def rank(card: int) -> int:
    """The rank of a one-card mask (specials: their bit's place, Dragon 15, Dog 0)."""
    return (card.bit_length() - 1) % SUIT_BITS


class CountingBot(Agent):
    base = "expert"  # plays the Grand Tichu, bomb, wish, Dragon and Dog decisions

    def __init__(self, strength: int = 3, **params):
        super().__init__(strength=strength, **params)
        self.strength = strength
        self.calls = self.made = 0  # its Tichu calls heard at round ends, and those made

    # -- passing: the books' sides ---------------------------------------------------------

    def pass_cards(self, view, legal):
        called = view.grand_tichu[view.seat] or view.tichu[view.seat]
        if len(legal.receivers) != 3 or called:  # Tientsin, Wu Wang (§3, §4); a caller
            return strategy(self.base).decide(view, legal)
        right, partner, left = legal.receivers  # turn order from the next seat (§2.1)
        cards = sorted(legal.cards, key=rank)
        kept = [c for c in cards if c in (DRAGON, PHOENIX)]  # too good to give away
        gift = {partner: max((c for c in cards if c not in kept), key=rank)}
        cards.remove(gift[partner])
        for seat, parity in ((right, 0), (left, 1)):
            fitting = [c for c in cards if 2 <= rank(c) <= ACE and rank(c) % 2 == parity]
            gift[seat] = cards.pop(cards.index(fitting[0] if fitting else cards[0]))
        return tuple(gift[seat] for seat in legal.receivers)

    # -- Tichu: a threshold learned from round ends -----------------------------------------

    def _takers(self, hand: int) -> int:
        held = cards_of(hand)
        ranks = [rank(c) for c in held if 2 <= rank(c) <= ACE]
        bombs = sum(ranks.count(r) == 4 for r in set(ranks))
        return ranks.count(ACE) + bool(hand & DRAGON) + bool(hand & PHOENIX) + bombs

    def tichu(self, view, legal):
        call = strategy(self.base).decide(view, legal)
        if call and self.calls >= 5 and self.made < 0.6 * self.calls:  # its calls fail often
            return self._takers(view.hand) >= self.strength
        return call

    def round_over(self, view, scores):
        if view.tichu[view.seat]:
            self.calls += 1
            self.made += view.n_out > 0 and view.out_order[0] == view.seat

    # -- play: count the unseen high cards, leave a partner's trick alone -------------------

    def _unseen_high(self, view) -> int:
        """Aces and the Dragon neither played (``history``) nor in the hand."""
        seen = view.hand
        for event in view.history:
            if event.kind in ("play", "bomb"):
                seen |= event.cards
        high = [c for c in cards_of(DECK & ~seen) if rank(c) >= ACE]
        return sum(c == DRAGON or rank(c) == ACE for c in high)

    def play(self, view, legal):
        seats = len(view.counts)  # sized to the table
        partner = (view.seat + 2) % seats if seats == 4 else -1  # across the table (§2.1)
        if None in legal and view.top_seat == partner and view.counts[partner] > 0:
            going_out = [p for p in legal if p is not None and p.cards == view.hand]
            return going_out[0] if going_out else None
        if view.top_code == 0 and self._unseen_high(view) == 0:  # leading: Aces are sure
            aces = [
                p
                for p in legal
                if isinstance(p, Play) and p.combo.kind == "single" and rank(p.cards) == ACE
            ]
            if aces:
                return aces[0]
        return strategy(self.base).decide(view, legal)
