"""A passing strategy in Python: the Dog to the right opponent (the next player, as the rule
books say: RULES.md §2.1), my lowest card to the left one and my best to my partner (§2.4);
every other decision is the heuristic's.

    tichusim compare agent:examples/dog_passer.py:DogPasser heuristic --deals 2000
"""

from tichusim import Agent, strategy
from tichusim.cards import DOG


class DogPasser(Agent):
    base = "heuristic"  # plays every decision this class does not define

    def pass_cards(self, view, legal):
        if len(legal.receivers) != 3:  # Tientsin / Wu Wang pass otherwise (§3, §4)
            return strategy(self.base).decide(view, legal)
        cards = list(legal.cards)  # low to high: Dog, Mah Jong, 2 .. A, Phoenix, Dragon
        right, partner, left = legal.receivers  # turn order from the next seat (§2.1)
        gift = {partner: cards.pop()}  # my best card
        gift[right] = cards.pop(cards.index(DOG)) if DOG in cards else cards.pop(0)
        gift[left] = cards.pop(0)  # my lowest card left
        return tuple(gift[seat] for seat in legal.receivers)
