"""Tests of puzzles/accounts/: players, guest adoption, log-in, limits and owner marks."""
