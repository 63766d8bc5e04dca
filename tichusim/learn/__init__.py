"""The learned player's training: its data (``data``)."""
