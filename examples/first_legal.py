"""A complete (and weak) agent: it takes every decision of the team games itself, with the
simplest legal answer. A template listing each method and its legal choices
(``tichusim/games/team_steps.py``)."""

from tichusim import Agent


class FirstLegal(Agent):
    def grand_tichu(self, view, legal):  # [False, True] (RULES.md §2.2)
        return False

    def tichu(self, view, legal):  # [False, True]; view.detail says when (§2.3)
        return False

    def pass_cards(self, view, legal):  # a Gifts: one card per seat of legal.receivers (§2.4)
        return next(iter(legal))

    def play(self, view, legal):  # Plays, then None (pass) when passing is allowed (§2.5)
        return legal[0]

    def bomb(self, view, legal):  # bombs out of turn, then None (§2.9)
        return None

    def wish(self, view, legal):  # 0 (no wish) or a rank 2..14 (§2.11)
        return 0

    def dragon(self, view, legal):  # the opponents' seats to give the trick to (§2.12)
        return legal[0]

    def dog(self, view, legal):  # Tientsin: which partner leads after the Dog (§3)
        return legal[0]
