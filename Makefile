# Two commands on a fresh machine: `make run` starts the server, `make test` runs every test.
PYTHON      ?= python3
VENV        := .venv
BIN         := $(VENV)/bin
CONSTRAINTS := constraints.txt
# `make run` installs what running needs; `make test` adds the test tools (pyproject.toml's
# "test" extra). Both pinned by constraints.txt.
RUN_STAMP   := $(VENV)/.installed-run
TEST_STAMP  := $(VENV)/.installed-test
CHROMIUM    ?= /usr/bin/chromium

.PHONY: run test lint chromium axe systemd-analyze services proxy venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -c $(CONSTRAINTS) --upgrade pip

$(RUN_STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/pip install --quiet -c $(CONSTRAINTS) -e .
	touch $@

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet -c $(CONSTRAINTS) -e '.[test]'
	touch $@

## venv: the virtual environment with the test tools (what `make test` uses)
venv: $(TEST_STAMP)

## run: install what running needs (no test tools) and start the server (http://127.0.0.1:8000
## unless told otherwise; ARGS="--port 9000" passes flags)
run: $(RUN_STAMP)
	$(BIN)/tertulia serve $(ARGS)

## test: set everything up (test tools, Chromium, systemd-analyze, PostgreSQL, Redis, nginx)
## and run the linter and the formatter's check, the type checker (mypy over src/, settings in pyproject.toml) and every
## test (axe-core too, for the accessibility checks)
test: $(TEST_STAMP) chromium axe systemd-analyze services proxy
	$(BIN)/ruff check src tests benchmarks docs/examples
	$(BIN)/ruff format --check src tests benchmarks docs/examples
	$(BIN)/mypy
	# Two workers, one per core, each taking whole test files (a file's servers and fixtures
	# stay in one process): 14 minutes instead of 20 on two cores, most of them the browser's.
	$(BIN)/pytest -q -n 2 --dist loadfile

## chromium: the browser tests drive Debian's Chromium (Playwright's own download does not work)
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Chromium with apt-get (about a minute)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "The browser tests need Chromium at $(CHROMIUM). Install it with:"; \
		echo "    sudo apt-get install chromium"; \
		echo "(or set CHROMIUM=/path/to/chromium), then run 'make test' again."; \
		exit 1; \
	fi

## axe: the browser tests run axe-core (pinned in tests/e2e/axe/package-lock.json) on every
## screen; npm installs it into tests/e2e/axe/node_modules (git-ignored). Needs node and npm.
AXE_DIR := tests/e2e/axe
AXE_JS  := $(AXE_DIR)/node_modules/axe-core/axe.min.js
axe: $(AXE_JS)

$(AXE_JS): $(AXE_DIR)/package.json $(AXE_DIR)/package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing node and npm with apt-get (for axe-core)…"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
		else \
			echo "The accessibility tests need axe-core from npm. Install node and npm with:"; \
			echo "    sudo apt-get install npm"; \
			echo "then run 'make test' again (or 'make axe')."; \
			exit 1; \
		fi; \
	fi
	npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error
	touch $@

## proxy: the cluster tests put Debian's nginx in front of several nodes (round robin)
proxy:
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing nginx with apt-get…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; \
	else \
		echo "The cluster tests need nginx. Install it with:"; \
		echo "    sudo apt-get install nginx-light"; \
		exit 1; \
	fi

## services: the cluster tests use a real PostgreSQL and Redis, at TERTULIA_TEST_DATABASE_URL
## and TERTULIA_TEST_REDIS_URL or on 127.0.0.1 (5432, trust authentication, database `test`;
## 6379). Where the local ones are missing, install and start Debian's when root, else say how.
CHECK_SERVICE := $(BIN)/python tests/store/services.py
PG_VERSION = $$(ls /etc/postgresql | sort -V | tail -n 1)
services: $(TEST_STAMP)
	@if ! $(CHECK_SERVICE) postgres; then \
		if [ -n "$$TERTULIA_TEST_DATABASE_URL" ]; then \
			echo "PostgreSQL does not answer at TERTULIA_TEST_DATABASE_URL=$$TERTULIA_TEST_DATABASE_URL"; \
			exit 1; \
		elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Starting PostgreSQL (installed with apt-get first if missing: about a minute)…"; \
			command -v pg_ctlcluster >/dev/null 2>&1 || { apt-get update -qq && \
				DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }; \
			hba=/etc/postgresql/$(PG_VERSION)/main/pg_hba.conf; \
			grep -q '^host all all 127.0.0.1/32 trust' $$hba || \
				sed -i '1i host all all 127.0.0.1/32 trust' $$hba; \
			pg_ctlcluster --skip-systemctl-redirect $(PG_VERSION) main start 2>/dev/null || \
				pg_ctlcluster --skip-systemctl-redirect $(PG_VERSION) main reload; \
			for i in 1 2 3 4 5 6 7 8 9 10; do pg_isready -q -h 127.0.0.1 && break; sleep 1; done; \
			su postgres -c "psql -h 127.0.0.1 -tAc \"SELECT 1 FROM pg_database WHERE datname = 'test'\"" \
				| grep -q 1 || su postgres -c "createdb -h 127.0.0.1 test"; \
			$(CHECK_SERVICE) postgres || { echo "PostgreSQL still does not answer"; exit 1; }; \
		else \
			echo "The cluster tests need PostgreSQL on 127.0.0.1:5432 (trust, database test). Run:"; \
			echo "    sudo apt-get install postgresql"; \
			echo "    sudo sed -i '1i host all all 127.0.0.1/32 trust' /etc/postgresql/*/main/pg_hba.conf"; \
			echo "    sudo pg_ctlcluster --skip-systemctl-redirect \$$(ls /etc/postgresql) main restart"; \
			echo "    sudo -u postgres createdb test"; \
			echo "(or set TERTULIA_TEST_DATABASE_URL), then run 'make test' again."; \
			exit 1; \
		fi; \
	fi
	@if ! $(CHECK_SERVICE) redis; then \
		if [ -n "$$TERTULIA_TEST_REDIS_URL" ]; then \
			echo "Redis does not answer at TERTULIA_TEST_REDIS_URL=$$TERTULIA_TEST_REDIS_URL"; \
			exit 1; \
		elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Starting Redis (installed with apt-get first if missing)…"; \
			command -v redis-server >/dev/null 2>&1 || { apt-get update -qq && \
				DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; }; \
			redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null; \
			for i in 1 2 3 4 5; do $(CHECK_SERVICE) redis && break; sleep 1; done; \
			$(CHECK_SERVICE) redis || { echo "Redis still does not answer"; exit 1; }; \
		else \
			echo "The cluster tests need Redis on 127.0.0.1:6379. Run:"; \
			echo "    sudo apt-get install redis-server"; \
			echo "    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no"; \
			echo "(or set TERTULIA_TEST_REDIS_URL), then run 'make test' again."; \
			exit 1; \
		fi; \
	fi

## systemd-analyze: tests/deploy verify deploy/tertulia.service with it (Debian's systemd)
systemd-analyze:
	@if command -v systemd-analyze >/dev/null 2>&1; then \
		true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing systemd for systemd-analyze with apt-get…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends systemd >/dev/null; \
	else \
		echo "tests/deploy check the systemd unit with systemd-analyze. Install it with:"; \
		echo "    sudo apt-get install systemd"; \
		exit 1; \
	fi

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks docs/examples
	$(BIN)/ruff format --check src tests benchmarks docs/examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
