"""Hypothesis strategies shared by the tests that compare the kernels with the reference."""

from hypothesis import strategies as st

from support import reference as ref

TOKENS = list(ref.ALL_CARDS)


@st.composite
def trick_states(draw):
    """``(hand, top, wish, on)``: a hand; a top the reference could have played from other
    cards, or None when leading; a wished rank or None; and, under a lone Phoenix top, the
    rank it was played on (1 the Mah Jong) or None when it was led (RULES.md §2.6)."""
    deck = draw(st.permutations(TOKENS))
    size = draw(st.integers(1, 14))
    hand = frozenset(deck[:size])
    top, on = None, None
    if draw(st.booleans()):
        other = frozenset(deck[size : size + draw(st.integers(1, 14))])
        choices = sorted((p for p in ref.legal_plays(other)[0] if p != {"Dog"}), key=sorted)
        if choices:
            top = draw(st.sampled_from(choices))
            if top == {"Ph"} and draw(st.booleans()):
                on = draw(st.integers(1, 14))
    return hand, top, draw(st.one_of(st.none(), st.integers(2, 14))), on
