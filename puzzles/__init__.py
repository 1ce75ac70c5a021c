"""The Sudoku site's Django app: puzzles, pools, games and the pages that serve them."""
