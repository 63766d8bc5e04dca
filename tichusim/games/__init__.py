"""The games: which table is played, by whom, with which options, and how its kernels' records
become the ``rounds`` and ``seats`` tables (``simulate``, ``simulate_games``, transcripts).
"""
