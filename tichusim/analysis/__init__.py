"""Answers from simulations: statistics and summaries, Grand Tichu odds of a hand and by hand
class, duplicate matches and leagues, reports and plots.
"""
