"""The Sudoku site's Django app: one app, grouped by what each part serves.

- pools/     the puzzles we hand out: stock and refill rounds, the dailies' picks, seed jobs
             and imports, the refill lock, the broker, the workers' tasks and heartbeats,
             the health checks and the admin's pool page.
- accounts/  who plays: players (users and guests, guest adoption, preferences), log-in and
             sign-up, look-alike names, rate limits.
- learn/     the technique guide, its examples, practice games and the skill profile.
- play/      games and their rules, the game API, the pages of play, dailies' pages,
             sharing and players' own puzzles, history and statistics.

Imports run one way: play may use learn, pools and accounts; learn may use pools and
accounts; pools and accounts use neither each other nor anything above them. Every group may
use models.py (the data model, where Django keeps it), sql.py (the few statements every
request makes, written once from the models' metadata) and the engine; those two use no
group. The modules at this
level (urls, admin, admin_site, apps), site/ (middleware, the request log, metrics and
health, deploy checks, the site's own pages), templatetags and management commands wire the
groups into Django and may use any of them. tests/web/site/test_structure.py keeps the
rule.
"""
