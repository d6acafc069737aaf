# Thin wrapper over CMake. `make demo` and `make test` are the two-command quick start: each
# installs what is missing (scripts/install-deps), builds, then runs.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-unit test-asan demo bench clean

all: build

deps:
	@scripts/install-deps --check 2>/dev/null || scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j 2

test-unit: build
	cd $(BUILD) && ctest --output-on-failure -L unit

# The unit tests, and the end-to-end tests of simhost, the agent and the controller, under
# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer). tests/lsan.supp lists the
# leaks inside FreeRDP/WinPR we cannot fix from outside; full unwinding lets them match.
ASAN_ENV = ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
ASAN_E2E = integration/(agent_simhost|agent_security|workloads_simhost|simhost_robust|run_simhost|run_agent_kill)

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSESSMAX_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -L unit
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -R '$(ASAN_E2E)'

demo: build
	$(BUILD)/sessmax demo

bench: build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b || exit 1; done
	@echo "== bench/agent-density.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/agent-density.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
