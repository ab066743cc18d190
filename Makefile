# Two commands for a new user: `make demo` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Tests run on every core (pytest-xdist); `make test PYTEST_ARGS=` runs them in one process.
PYTEST_ARGS ?= -n auto

.PHONY: demo test install lint imports typecheck lock bench clean

$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	@mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --address http://$(HOST):$(PORT)/
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The gov.br sign-in tests run a real OpenID provider (npm's oidc-provider, tests/govbr): installed
# once from its lock file where npm is present (without it those tests say why they skip).
OIDC := tests/govbr/node_modules/.installed
$(OIDC): tests/govbr/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd tests/govbr && npm ci --no-audit --no-fund --silent && touch node_modules/.installed; \
	else echo "npm not found: the gov.br sign-in tests will be skipped"; fi

# pytest exits 5 when it collected no test: that is a failure here too.
test: $(STAMP) $(OIDC)
	$(BIN)/python -m pytest --ds=lotacao.config.settings.test $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

# The layers of docs/architecture.md, as import-linter contracts in pyproject.toml.
imports: $(STAMP)
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

lock:
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --generate-hashes --allow-unsafe --strip-extras -q -o requirements.lock requirements.in

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
