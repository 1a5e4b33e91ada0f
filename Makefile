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

.PHONY: run test lint chromium systemd-analyze venv clean

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

## test: set everything up (test tools, Chromium, systemd-analyze) and run the linter and every
## test
test: $(TEST_STAMP) chromium systemd-analyze
	$(BIN)/ruff check src tests benchmarks docs/examples
	$(BIN)/pytest -q

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

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
