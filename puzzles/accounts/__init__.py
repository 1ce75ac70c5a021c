"""Accounts: who plays and how they get in.

players (a user or a guest, guest adoption at log-in, preferences), views (log-in, sign-up,
password reset, each limited), forms, usernames (log-in keys, look-alike names), limits (the
rate limits, and the refusal page of a costly request), owners (whose pages a browser holds:
the owner mark of every page, and Clear-Site-Data at log-in and log-out), sessions,
context_processors.

May import: models, sql, the engine. Never pools, learn or play.
"""
