"""Tests of puzzles/pools/: stock, daily picks, seeding, imports, health and the pool page."""
