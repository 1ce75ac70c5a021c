"""Play: games and the pages and API that serve them.

games (a game's rules: starting one, moves, undo and redo, hints, reveals, the clock, the
end), api (the JSON API of a game), views (home, new games, the dailies' pages, the game
page, history, statistics, settings), sharing and sharing_views (share links, players' own
puzzles), stats (history, streaks, leaderboards, the solve-time chart).

May import: models, sql, the engine, pools, accounts and learn.
"""
