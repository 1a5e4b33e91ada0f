# Two commands on a fresh machine: `make run` starts the server, `make test` runs every test.
PYTHON   ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium

.PHONY: run test lint chromium venv clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

## run: set everything up and start the server (http://127.0.0.1:8000 unless told otherwise)
run: $(STAMP)
	$(BIN)/tertulia serve $(ARGS)

## test: set everything up (Chromium included) and run the linter and every test
test: $(STAMP) chromium
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

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks docs/examples
	$(BIN)/ruff format --check src tests benchmarks docs/examples

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
