# The project's commands. Each target creates and uses .venv on a fresh machine.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
NODE := /usr/bin/node
NPM := /usr/bin/npm
ESBUILD := node_modules/.bin/esbuild
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

GETTEXT := /usr/bin/msgfmt

.PHONY: run test bench bundle messages lint format clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

run: $(STAMP)
	mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_pool --difficulty all --count 5 --top-up --now
	$(PY) -m sudokusite.launcher

# The browser tests drive Debian's Chromium, the page's model is tested with Node's own test
# runner, and the deploy tests read deploy/ with systemd-analyze and nginx (openssl makes
# their certificate), deploy/prometheus/ with Debian's prometheus (its promtool, and the
# server itself scraping the site) and run the backup script's pg_dump:
# install each when missing.
APT_INSTALL := $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq
DEPLOY_TOOLS := /usr/bin/systemd-analyze /usr/sbin/nginx /usr/bin/openssl /usr/bin/pg_dump \
	/usr/bin/promtool

$(CHROMIUM):
	$(APT_INSTALL) chromium

$(NODE):
	$(APT_INSTALL) nodejs

$(NPM):
	$(APT_INSTALL) npm

# The page scripts are built into static/js/dist/ by esbuild (package.json pins it; the
# built files are committed, and a test checks they are not stale).
$(ESBUILD): package.json package-lock.json | $(NODE) $(NPM)
	$(NPM) ci --no-audit --no-fund
	touch $(ESBUILD)

bundle: $(ESBUILD)
	$(NODE) build.mjs

/usr/bin/systemd-analyze:
	$(APT_INSTALL) systemd

/usr/sbin/nginx:
	$(APT_INSTALL) nginx

/usr/bin/openssl:
	$(APT_INSTALL) openssl

/usr/bin/pg_dump:
	$(APT_INSTALL) postgresql-client

# Debian's prometheus package has both the server and promtool; its service is not wanted
# on a test machine, so it is stopped and left disabled where systemd runs.
/usr/bin/promtool:
	$(APT_INSTALL) --no-install-recommends prometheus
	-$(SUDO) systemctl disable --now prometheus 2>/dev/null

# The catalogs in locale/ are written by Django's makemessages and compiled by
# compilemessages, both on Debian's gettext; the compiled .mo files are committed (a
# production install needs no gettext) and a test checks they are current.
$(GETTEXT):
	$(APT_INSTALL) gettext

LOCALES := de fr es pt_BR ja zh_Hans ar
MESSAGES_IGNORE := --ignore=.venv --ignore=node_modules --ignore=var --ignore=tests \
	--ignore=bench --ignore=static/js/dist --ignore=engine

messages: $(STAMP) $(GETTEXT)
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) -d django -e html,txt,py,svg $(MESSAGES_IGNORE) --no-obsolete --no-location
	$(PY) manage.py makemessages $(addprefix -l ,$(LOCALES)) -d djangojs $(MESSAGES_IGNORE) --no-obsolete --no-location
	xgettext --language=Python --from-code=UTF-8 --add-comments=Translators --no-location \
		--keyword=_ --keyword=N_ --keyword=ngettext:1,2 --keyword=pgettext:1c,2 \
		--package-name=engine -o engine/locale/engine.pot $$(find engine -name '*.py' | sort)
	for locale in $(LOCALES); do \
		po=engine/locale/$$locale/LC_MESSAGES/engine.po; mkdir -p $$(dirname $$po); \
		if [ -f $$po ]; then msgmerge --quiet --update --backup=none --no-location $$po engine/locale/engine.pot; \
		else msginit --no-translator --locale=$$locale --input=engine/locale/engine.pot --output-file=$$po; fi; \
		msgattrib --no-obsolete --no-location -o $$po $$po; \
	done
	$(PY) manage.py compilemessages $(addprefix -l ,$(LOCALES)) --ignore=.venv --ignore=node_modules --ignore=var

# The whole suite; it ends by naming its 15 slowest tests, where CI's time goes.
test: $(STAMP) $(CHROMIUM) $(NODE) $(ESBUILD) $(DEPLOY_TOOLS) $(GETTEXT)
	$(NODE) --test tests/js/
	$(PY) -m pytest -n auto --durations=15

bench: $(STAMP)
	$(PY) -m bench

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
