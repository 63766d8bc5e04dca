"""A passing strategy in Python: the Dog to the left opponent, my lowest card to the right
one and my best to my partner (RULES.md §2.4); every other decision is the heuristic's.

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
        left, partner, right = legal.receivers
        gift = {partner: cards.pop()}  # my best card
        gift[left] = cards.pop(cards.index(DOG)) if DOG in cards else cards.pop(0)
        gift[right] = cards.pop(0)  # my lowest card left
        return tuple(gift[seat] for seat in legal.receivers)
