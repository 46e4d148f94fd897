"""Shared pieces for Sense HAT games: colours (and, later, the game launcher)."""
