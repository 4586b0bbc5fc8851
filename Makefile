# cpkit: every target bootstraps .venv first, so a fresh clone needs only Python 3.11 and a compiler.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# A separate cache home for the bounds-checked pass, so checked and unchecked machine code never
# mix; cpkit keeps its numba cache under it, keyed by its sources (cpkit/_numba_cache.py).
BOUNDSCHECK_CACHE := $(CURDIR)/$(VENV)/cache-boundscheck

.PHONY: demo kernels test test-slow test-all bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("cpkit needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask,render]'
	touch $(STAMP)

# The kernels of a default tiling run built ahead of time for these sources (cpkit/_aot.py), so
# that a run need not load them through numba: about a minute after a change to the sources,
# nothing when built.  The tests check the JIT kernels (tests/test_aot.py builds its own).
kernels: $(STAMP)
	$(BIN)/python -m cpkit.engines.tiling.tiling_ahead

demo: kernels
	$(BIN)/cpkit tile instances/tiling/pentominoes_10x6.txt --show 1

# The default suite: fast tests plus one published count per engine.  Each test runs once: the
# kernel tests (marked `kernel`) with numba's bounds checking on, the others as users run cpkit.
# pytest keeps one core busy, so the two passes run side by side: the bounds-checked one in the
# background, its report printed (from KERNEL_LOG) when both are done; Ctrl-C stops both.
KERNEL_LOG := $(VENV)/kernel-tests.log
test: $(STAMP)
	@echo "kernel tests (NUMBA_BOUNDSCHECK=1) run alongside; their report follows this pass's"
	@NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR= XDG_CACHE_HOME=$(BOUNDSCHECK_CACHE) \
	  $(BIN)/python -m pytest -q -m "kernel and not slow" -p no:cacheprovider > $(KERNEL_LOG) 2>&1 & \
	kernels=$$!; trap 'kill $$kernels 2>/dev/null; exit 130' INT TERM; \
	$(BIN)/python -m pytest -q -m "not slow and not kernel"; rest=$$?; \
	wait $$kernels; checked=$$?; \
	echo "--- kernel tests, bounds-checked ($(KERNEL_LOG)):"; cat $(KERNEL_LOG); \
	test $$rest -eq 0 && test $$checked -eq 0

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

test-all: $(STAMP)
	$(BIN)/python -m pytest -q

# The benchmark suites (benchmarks/, not installed with cpkit): `make bench SUITE=tiling-dlx`,
# options after BENCH_OPTIONS (`BENCH_OPTIONS=--quick`); without SUITE, the list of suites.
SUITE ?=
BENCH_OPTIONS ?=
bench: kernels
	@if [ -z "$(SUITE)" ]; then $(BIN)/python -m benchmarks --help; \
	  echo; echo "run one with: make bench SUITE=NAME [BENCH_OPTIONS=--quick]"; \
	else $(BIN)/python -m benchmarks $(SUITE) $(BENCH_OPTIONS); fi

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
