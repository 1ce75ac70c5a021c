"""Play: games and the pages and API that serve them.

board (the board rules), starting (new, daily and shared games), changes (the one write
path), help (hints, Apply, check, reveal, give up), clock (pause, resume), finish, days
(the player's day and zone), answers (the state the API answers), errors, api (the JSON
API of a game), views (home, new games, the dailies' pages, the game page, history,
statistics, settings), newcomers (a newcomer's home page made once for many), sharing and
sharing_views (share links, players' own puzzles), stats (history, streaks, leaderboards,
the solve-time chart), upkeep and tasks (the nightly prune).

May import: models, sql, the engine, pools, accounts and learn.
"""
