"""Learning: the technique guide, its examples, practice games and the skill profile.

guide (a page per technique of the grader's table, the grade shown in the open), examples
(positions where a technique is the next step, found by a task), practice (games that start
at such a position), skills (what a player has practised and found), views, tasks.

May import: models, sql, the engine, pools and accounts. Never play.
"""
