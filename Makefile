# Every target builds .venv first with a Python >= 3.12 found by tools/find-python.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1:8000
SERVE_BIND ?= 127.0.0.1:8000
# `make serve`'s key when the environment gives none: generated once, kept out of git, readable by us only.
SERVE_KEY := .serve/secret_key
# The Makefile is the development tool: debug pages and the development key unless told otherwise.
# A deployment sets DJANGO_DEBUG=0 and DJANGO_SECRET_KEY (docs/deployment.md) and does not use make.
export DJANGO_DEBUG ?= 1

.PHONY: run serve test bench loadtest lint lock lowest setup migrate messages pyodide axe

setup: $(STAMP) pyodide axe

# The Python runtime the calculator scores with offline (docs/offline.md): fetched once, pinned and
# verified; without a network setup goes on and only offline scoring is missing.
pyodide: $(STAMP)
	$(PY) tools/fetch_pyodide.py

# axe-core, which the browser tests inject to check each page's accessibility: pinned and verified the same way.
axe: $(STAMP)
	$(PY) tools/fetch_axe.py

# Installed from the lock: every package at the version and with the hashes requirements.lock names, then
# the project itself (editable, nothing more). docs/deployment.md, "Dependencies", says how to upgrade.
$(STAMP): pyproject.toml requirements.lock
	@python=$$(tools/find-python) || exit 1; \
	  [ -x $(PY) ] || { echo "Creating $(VENV) with $$python"; "$$python" -m venv $(VENV); }
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# The lock again from pyproject.toml's ranges, for every platform and Python >= 3.12. Upgrade one package:
# make lock LOCK_ARGS="--upgrade-package django"; everything: make lock LOCK_ARGS=--upgrade.
LOCK_EXTRAS := --extra test --extra tools --extra bench
lock: $(STAMP)
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_EXTRAS) --universal --python-version 3.12 \
	  --generate-hashes --quiet $(LOCK_ARGS) -o requirements.lock

# The lowest versions pyproject.toml's ranges allow, in a venv of their own, and a part of the suite on them
# (tools/lowest; .ci/run runs it): the floors are versions the project works with, not guesses.
lowest: $(STAMP)
	tools/lowest $(PY)

messages: $(STAMP)
	@if command -v msgfmt >/dev/null 2>&1; then $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	  else echo "msgfmt not found: using the committed .mo files"; fi

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput -v 0

run: setup migrate messages
	$(PY) manage.py load_demo
	$(PY) manage.py runserver $(HOST)

# The app as production runs it (docs/deployment.md): debug off, a real key, static files hashed and
# compressed by collectstatic and served by WhiteNoise, gunicorn with sczmj_site/gunicorn_conf.py, on 127.0.0.1.
serve: export DJANGO_DEBUG = 0
serve: export DJANGO_SECRET_KEY_FILE ?= $(abspath $(SERVE_KEY))
serve: export SCZMJ_BIND = $(SERVE_BIND)
serve: $(SERVE_KEY) setup migrate messages
	$(PY) manage.py collectstatic --noinput -v 0
	$(VENV)/bin/gunicorn -c python:sczmj_site.gunicorn_conf sczmj_site.wsgi

$(SERVE_KEY): | $(STAMP)
	@mkdir -p $(@D)
	@umask 077 && $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@
	@echo "Generated a secret key in $@ (set DJANGO_SECRET_KEY or DJANGO_SECRET_KEY_FILE to use your own)"

test: setup messages
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m bench

# 20 locust users for 30 s against gunicorn on 127.0.0.1, on SQLite then PostgreSQL (bench/loadtest.py);
# locust is an optional dependency group, installed here on first use.
LOADTEST_STAMP := $(VENV)/.loadtest-installed
loadtest: $(STAMP) $(LOADTEST_STAMP)
	$(PY) -m bench.loadtest

$(LOADTEST_STAMP): pyproject.toml | $(STAMP)
	$(PY) -m pip install --quiet -e '.[loadtest]'
	touch $@

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
