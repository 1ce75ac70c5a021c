"""Settings, read from the environment with defaults that run on a laptop.

DATABASE_URL (default: SQLite in var/), REDIS_URL (broker and cache), DJANGO_SECRET_KEY,
DJANGO_DEBUG, DJANGO_ALLOWED_HOSTS, TIME_ZONE. See docs/operations.md.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_str(name: str, default: str) -> str:
    """The variable's value, or default when unset or empty."""
    return os.environ.get(name) or default


def env_bool(name: str, default: bool) -> bool:
    """True for 1/true/yes/on, False for 0/false/no/off (any case)."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    """An integer variable."""
    value = os.environ.get(name, "").strip()
    try:
        return int(value) if value else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list."""
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


DEBUG = env_bool("DJANGO_DEBUG", True)
_DEV_SECRET = "dev-only-secret-key-set-DJANGO_SECRET_KEY-in-production"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# How many proxies in front of the site append to X-Forwarded-For (0: trust none).
TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 0)
# The limits of puzzles/accounts/limits.py (log-in, sign-up, password reset, game starts). Off
# only for load tests that play many games a second from one address.
RATE_LIMITS = env_bool("RATE_LIMITS", True)
# A request that waited longer than this for a web thread since nginx received it (its
# X-Request-Start) is answered 503 with Retry-After at once, before any work: under a surge
# the site turns away what it cannot answer in time instead of queueing it. 0 turns it off.
SHED_AFTER_MS = env_int("SHED_AFTER_MS", 1000)
if SHED_AFTER_MS < 0:
    raise ImproperlyConfigured(f"SHED_AFTER_MS must be 0 (off) or more, not {SHED_AFTER_MS}")
# The game page's cadence: while a player plays, the changes made go to the server in one
# batch this long after the first that waits (at once on a solve, help, a pause, a hidden
# tab or a closed page, and when six wait), kept on the device meanwhile. Longer sends fewer
# requests; another device shows a change this much later (docs/play.md). 0: at once.
SEND_EVERY_MS = env_int("SEND_EVERY_MS", 8000)
if not 0 <= SEND_EVERY_MS <= 60000:
    raise ImproperlyConfigured(f"SEND_EVERY_MS must be 0 to 60000, not {SEND_EVERY_MS}")
# A web process whose requests waited this long on average for a thread (their
# X-Request-Start, over the last 5 to 10 s), or whose machine's cores were BUSY_CPU_PERCENT
# busy with work at normal priority over that time, is strained: the answers to the pages'
# batches then ask for the cadence BUSY_SEND_EVERY_MS instead of SEND_EVERY_MS, until it is
# not (the cores: until they are 15 points below). Fewer requests while the cores are
# full; another device sees a change that much later. 0 turns each sign, or the longer
# cadence itself, off.
BUSY_WAIT_MS = env_int("BUSY_WAIT_MS", 50)
BUSY_CPU_PERCENT = env_int("BUSY_CPU_PERCENT", 70)
if not 0 <= BUSY_CPU_PERCENT <= 100:
    raise ImproperlyConfigured(f"BUSY_CPU_PERCENT must be 0 (off) to 100, not {BUSY_CPU_PERCENT}")
BUSY_SEND_EVERY_MS = env_int("BUSY_SEND_EVERY_MS", 20000)
if BUSY_WAIT_MS < 0:
    raise ImproperlyConfigured(f"BUSY_WAIT_MS must be 0 (off) or more, not {BUSY_WAIT_MS}")
if not 0 <= BUSY_SEND_EVERY_MS <= 60000:
    raise ImproperlyConfigured(f"BUSY_SEND_EVERY_MS must be 0 to 60000, not {BUSY_SEND_EVERY_MS}")
# The human-pace benchmark's floor view (sudokusite/bench_urls.py); never on in production.
BENCH_FLOOR_VIEW = env_bool("BENCH_FLOOR_VIEW", False)

# HTTPS: on by default in production. Cookies travel over HTTPS only, plain HTTP is
# redirected, and browsers are told to keep to HTTPS (HSTS).
HTTPS = env_bool("DJANGO_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and env_bool("DJANGO_SSL_REDIRECT", True)
# ... except the health checks, which a load balancer or monitor asks over plain HTTP from
# behind the proxy that terminates TLS: a redirect would read as a failed check.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^healthz/workers$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = HTTPS and env_bool("DJANGO_HSTS_PRELOAD", False)
if env_bool("DJANGO_BEHIND_PROXY", False):  # the proxy terminates TLS and says so
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# A failed CSRF check answers JSON under /api/ (see puzzles/site/middleware.py).
CSRF_FAILURE_VIEW = "puzzles.site.middleware.csrf_failure"
CSRF_COOKIE_HTTPONLY = True  # pages hand the token to scripts in a meta tag
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # guests keep their games for a year
# In the database, as Django's own backend keeps them, read with one hand-written SELECT.
SESSION_ENGINE = "puzzles.accounts.sessions"
SILENCED_SYSTEM_CHECKS = [
    # HSTS preload is a promise to browser vendors the operator makes on purpose:
    # set DJANGO_HSTS_PRELOAD=1 once the domain is ready to be listed.
    "security.W021",
]

INSTALLED_APPS = [
    "puzzles.apps.SudokuAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "puzzles",
]

MIDDLEWARE = [
    "puzzles.site.request_log.RequestLogMiddleware",
    "puzzles.site.middleware.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # /healthz by the machine's address: answered before any host check refuses it.
    "puzzles.site.middleware.HealthChecksAnyHostMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Requests counted for the refills (puzzles/pools/traffic.py), shed ones included.
    "puzzles.site.middleware.CountRequestsMiddleware",
    # A request that waited too long for a thread is turned away here, before any work.
    "puzzles.site.shedding.ShedLoadMiddleware",
    "puzzles.site.middleware.ApiErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The request's language (puzzles/site/languages.py): after the session, before
    # CommonMiddleware; it reads the account's setting, so the user is known before it.
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "puzzles.site.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "puzzles.accounts.owners.OwnerMarkMiddleware",
]

# The benchmark's site adds its floor view (sudokusite/bench_urls.py); no other has it.
ROOT_URLCONF = "sudokusite.bench_urls" if BENCH_FLOOR_VIEW else "sudokusite.urls"
WSGI_APPLICATION = "sudokusite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # `{% url %}` with its addresses kept a process (puzzles/templatetags/kept_urls.py;
            # the templates load kept_i18n, Django's i18n with `{% translate %}` kept, likewise).
            "builtins": ["puzzles.templatetags.kept_urls"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "puzzles.accounts.context_processors.preferences",
                "puzzles.accounts.context_processors.owner",
                "puzzles.play.days.zone_context",
                "django.template.context_processors.i18n",
                "puzzles.site.languages.alternates",
                "puzzles.site.js_catalog.js_catalog_context",
            ],
        },
    },
]

# Database: SQLite in var/ unless DATABASE_URL says otherwise.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(exist_ok=True)  # SQLite creates the file, not the folder
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        # Web, worker and beat write to one file: wait for the lock instead of failing,
        # take it when a transaction starts (no deadlock on upgrade), and let readers
        # go on while a writer works.
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory, so that worker processes started by the tests share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: the Celery broker and the cache (locks, rate limits). Without REDIS_URL the cache
# is per process and the broker is the usual local Redis; `make run` starts its own.
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The parts of a page the same for every player in a language ({% cache ... using=
# "fragments" %}: the game page's tools, panels and help), rendered once a process and kept
# in its memory: they change only with the code and the catalogs, which a new release
# brings with new processes. Off with DEBUG, where templates are edited as the site runs.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends."
    + ("dummy.DummyCache" if DEBUG else "locmem.LocMemCache"),
    "LOCATION": "fragments",
    "TIMEOUT": None,
}

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "redis://127.0.0.1:6379/0")
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A message not acknowledged this long (its worker died) goes back to the queue:
# longer than the longest task, a seed-job chunk or a generation batch.
_VISIBILITY = env_int("CELERY_VISIBILITY_TIMEOUT", 600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _VISIBILITY,
    # Workers sweep for such messages every interval * throttle seconds (100 by
    # default); keep the sweep well inside a short visibility timeout.
    "unacked_restore_interval": max(1, min(10, _VISIBILITY // 4)),
    "unacked_restore_throttle": 10 if _VISIBILITY >= 300 else 1,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
# Acknowledge after the task ran, so a task whose worker dies is redone (tasks are
# idempotent: the canonical key stops duplicates).
CELERY_TASK_ACKS_LATE = True
# ... and a task whose worker process was killed is requeued, not marked failed.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One task at a time per process: a generation batch is long, don't hoard the queue.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A batch that runs away is stopped: soft limit first (clean exit), then hard.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# JSON only: tasks take ids and plain values.
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Nobody reads task results.
CELERY_TASK_IGNORE_RESULT = True
# The web never waits on the broker: publishing fails at once and is logged.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_SEND_TASK_EVENTS = False
# The worker's pool processes, which make the puzzles, run this many nice levels below
# the web (0 to 19): the generator takes no CPU a player needs.
WORKER_NICE = env_int("WORKER_NICE", 10)
if not 0 <= WORKER_NICE <= 19:
    raise ImproperlyConfigured("WORKER_NICE must be between 0 and 19")
# And in Linux's idle scheduling class (SCHED_IDLE): they run only on a core no other
# process wants, and give it up the moment a web thread wakes (a nice level still shares
# it). Off: the nice level alone, for a machine whose worker must keep pace under load.
WORKER_IDLE = env_bool("WORKER_IDLE", True)
# A worker that starts refills the pools and picks today's dailies without waiting for beat.
WORKER_START_CHECKS = env_bool("WORKER_START_CHECKS", True)
REFILL_INTERVAL_SECONDS = env_int("REFILL_INTERVAL_SECONDS", 60)
# A refill round's lock dies this long after its last renewal (the round renews it after
# every puzzle): a lock left by a dead round or a Redis hiccup is gone by the next beat.
REFILL_LOCK_SECONDS = env_int("REFILL_LOCK_SECONDS", REFILL_INTERVAL_SECONDS)
# The site is quiet while it answers fewer requests a minute than this over the last
# REFILL_QUIET_MINUTES: beat then tops every pool up to its high mark, so that a surge later
# draws on full pools. At human pace a player sends about 6 requests a minute: 300 is about
# 50 players. 0: no top-up (pools are refilled below their low marks only).
REFILL_QUIET_REQUESTS_PER_MINUTE = env_int("REFILL_QUIET_REQUESTS_PER_MINUTE", 300)
REFILL_QUIET_MINUTES = env_int("REFILL_QUIET_MINUTES", 5)
if not 1 <= REFILL_QUIET_MINUTES <= 15:
    raise ImproperlyConfigured("REFILL_QUIET_MINUTES must be between 1 and 15")
# The site is busy at this many requests a minute over the last minute or more (3,000: about
# 500 players, a quarter of a core of web and database work): a refill batch for a pool above
# its low mark stops between two puzzles, the rest made at the next quiet moment. 0: never.
REFILL_BUSY_REQUESTS_PER_MINUTE = env_int("REFILL_BUSY_REQUESTS_PER_MINUTE", 3000)
if min(REFILL_QUIET_REQUESTS_PER_MINUTE, REFILL_BUSY_REQUESTS_PER_MINUTE) < 0 or (
    REFILL_BUSY_REQUESTS_PER_MINUTE
    and REFILL_QUIET_REQUESTS_PER_MINUTE > REFILL_BUSY_REQUESTS_PER_MINUTE
):
    raise ImproperlyConfigured(
        "REFILL_QUIET_REQUESTS_PER_MINUTE must be between 0 and REFILL_BUSY_REQUESTS_PER_MINUTE"
    )
# Every worker and beat writes a heartbeat this often (puzzles/pools/heartbeats.py: 15 s,
# or a quarter of a shorter beat period); one not seen for WORKER_GONE_SECONDS (three
# heartbeats missed: 45 s) is gone, and /healthz/workers answers 503 while no worker or no
# beat is alive. With the shipped alert rules a death pages within 2 minutes
# (docs/monitoring.md has the sum: 45 s, a scrape, an evaluation and the rule's 30 s).
HEARTBEAT_SECONDS = env_int("HEARTBEAT_SECONDS", min(15, max(1, REFILL_INTERVAL_SECONDS // 4)))
WORKER_GONE_SECONDS = env_int("WORKER_GONE_SECONDS", 3 * HEARTBEAT_SECONDS)
if WORKER_GONE_SECONDS <= HEARTBEAT_SECONDS:
    raise ImproperlyConfigured("WORKER_GONE_SECONDS must be longer than HEARTBEAT_SECONDS")
# How often beat looks for technique examples the guide still lacks.
EXAMPLES_INTERVAL_SECONDS = env_int("EXAMPLES_INTERVAL_SECONDS", 3600)
CELERY_BEAT_SCHEDULE = {
    "refill-pools-every-minute": {
        "task": "puzzles.pools.tasks.refill_pools",
        "schedule": float(REFILL_INTERVAL_SECONDS),
    },
    "resume-stalled-seed-jobs-every-minute": {
        "task": "puzzles.pools.tasks.resume_stalled_seed_jobs",
        "schedule": float(REFILL_INTERVAL_SECONDS),
    },
    # A new date starts somewhere every hour: the dailies of every date lived are picked.
    "pick-daily-puzzles-every-hour": {
        "task": "puzzles.pools.tasks.ensure_daily",
        "schedule": crontab(minute=1),
    },
    "find-technique-examples-every-hour": {
        "task": "puzzles.learn.tasks.refresh_technique_examples",
        "schedule": float(EXAMPLES_INTERVAL_SECONDS),
    },
    "prune-every-night": {
        "task": "puzzles.play.tasks.prune",
        "schedule": crontab(minute=17, hour=3),
    },
    "pick-tomorrows-daily-puzzles-in-the-evening": {
        "task": "puzzles.pools.tasks.ensure_daily",
        "schedule": crontab(minute=0, hour=21),
        "kwargs": {"days_ahead": 1},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat sends only while it holds a lock in the broker's Redis (sudokusite/beat.py): a second
# beat started by mistake sends nothing, and takes over within this long of the first's death.
CELERY_BEAT_SCHEDULER = "sudokusite.beat:OneBeatScheduler"
BEAT_LOCK_SECONDS = env_int("BEAT_LOCK_SECONDS", 30)
if BEAT_LOCK_SECONDS < 1:
    raise ImproperlyConfigured("BEAT_LOCK_SECONDS must be at least 1")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "puzzles:home"
LOGOUT_REDIRECT_URL = "puzzles:home"

# The languages shipped (docs/languages.md): each with a complete catalog in locale/, a test
# fails on an entry missing or fuzzy. English pages have no prefix; the others /<code>/.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("pt-br", "Português (Brasil)"),
    ("ja", "日本語"),
    ("zh-hans", "简体中文"),
    ("ar", "العربية"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice, kept a year; read by the server only.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Mail (password resets) goes to the console unless an SMTP server is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "sudoku@localhost")

# /metrics answers only a request that carries "Authorization: Bearer <METRICS_TOKEN>";
# without a token set, there is no /metrics (404).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# The addresses whose requests to /healthz and /healthz/workers are told the details (pool
# stock, heartbeats, the broker): networks in CIDR form, the machine itself by default.
# Anyone else (and every proxied client, behind DJANGO_TRUSTED_PROXIES) is told "ok" or
# "down"; the holder of METRICS_TOKEN and staff members are told the details from anywhere.
MONITOR_NETWORKS = [
    ipaddress.ip_network(net, strict=False)
    for net in env_list("MONITOR_NETWORKS", ["127.0.0.0/8", "::1/128"])
]

# Uploads: an import file is at most this big; larger ones are refused before reading.
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 5 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# Logs go to standard error (journald under systemd), a line each: plain text, or with
# LOG_FORMAT=json one JSON object a line, a request's method, path, status, duration_ms,
# client and user as fields of their own (puzzles/site/request_log.py logs one line per
# request). Every line carries the id of the request it was written for, or "-"
# (sudokusite/logs.py); gunicorn's own lines take the same format (sudokusite/gunicorn.py).
LOG_FORMAT = env_str("LOG_FORMAT", "plain")
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"()": "sudokusite.logs.plain_formatter"},
        "json": {"()": "sudokusite.logs.json_formatter"},
    },
    "filters": {
        "request_id": {"()": "sudokusite.logs.RequestIdFilter"},
        "client_mistake": {"()": "puzzles.site.middleware.ClientMistakeFilter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            # A client's bad request (a refused Host, a body too large or unreadable, any
            # SuspiciousOperation): a WARNING line, not an ERROR with a traceback.
            "filters": ["request_id", "client_mistake"],
        }
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        # Django's own lines go to the console above only (its default adds a plain handler
        # of its own while DEBUG is on): in the site's format, with the request id.
        "django": {"handlers": [], "level": "INFO"},
        "puzzles": {"level": env_str("LOG_LEVEL", "INFO")},
        "sudokusite": {"level": env_str("LOG_LEVEL", "INFO")},  # a worker's warm-up
    },
}
