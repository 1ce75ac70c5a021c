"""The pools: the puzzles we hand out and the workers that make them.

stock (what is fresh, refill rounds, storing and claiming), activity (refill batches
tallied), daily (the daily picks), locks (the refill lock), broker (talking
to Redis without ever waiting on it, its queue), seeding and imports (admins' seed jobs),
tasks (Celery wrappers of the above), heartbeats (workers and beat seen alive), health
(/healthz and /healthz/workers), traffic (the site's requests counted, quiet and busy for
the refills) and admin_views (the admin's pool page).

May import: models, sql, the engine. Never accounts, learn or play.
"""
