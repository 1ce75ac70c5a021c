"""Tests of puzzles/learn/: the technique guide, its examples and practice games."""
