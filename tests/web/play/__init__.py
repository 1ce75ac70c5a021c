"""Tests of puzzles/play/: games, the API, changes, hints, pages of play, sharing, ranking."""
