"""The site around the groups: what every request goes through and what stands outside
any one concern.

middleware (errors of the JSON API as JSON, the Content-Security-Policy, the CSRF failure
page), request_log (a line and a latency per request), metrics (what monitors read:
/metrics for Prometheus, /healthz and /healthz/workers and who is told their details),
checks (our `check --deploy` warnings), views (robots.txt, the favicon, the error pages,
the service worker, the manifest and the offline page).

May import any group and the engine; no group imports it (tests/web/site/test_structure.py).
"""
