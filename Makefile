# Thin wrapper over CMake. Plain `make` only configures and builds (no package installs, nothing
# written outside the tree). `make deps` installs what is missing from Debian's archive and writes
# nothing else (scripts/install-deps); `make demo`, `make test`, `make test-asan`,
# `make bench` and `make fuzz` run it first, so each is a one-command start on a fresh machine.
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)

.PHONY: all deps build test test-unit lint test-asan demo bench fuzz clean

all: build

deps:
	@scripts/install-deps --check 2>/dev/null || scripts/install-deps

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || \
	  { echo "configure failed: missing packages? 'make deps' installs them"; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS)

# The end-to-end tests mostly wait (a ramp, a steady state, a timeout): four at once on two cores
# each took 0.98x the time they took three at once (ctest 881 s, against 1118 s with -j 3 and
# 1558 s with -j 2). The xrdp tests run one at a time (RESOURCE_LOCK), the longest chain.
TEST_JOBS ?= 4
test: deps
	@$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

test-unit: build
	cd $(BUILD) && ctest --output-on-failure -L unit

# The checks of the tree (layout, arrows, doc links, include circles): no binary is run.
lint: build
	cd $(BUILD) && ctest --output-on-failure -L lint

# The unit tests, and the end-to-end tests of simhost, the agent and the controller, under
# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer). tests/lsan.supp lists the
# leaks inside FreeRDP/WinPR we cannot fix from outside; full unwinding lets them match. It costs
# a slow unwind per malloc (test_ydoc's 400,000 keys: 71 s instead of 5 s), so only the
# end-to-end tests, which run FreeRDP, pay for it.
ASAN_UNIT_ENV = ASAN_OPTIONS=detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
ASAN_ENV = ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
ASAN_E2E = integration/(agent_simhost|agent_security|workloads_simhost|simhost_robust|run_simhost|run_agent_kill)

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSESSMAX_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && $(ASAN_UNIT_ENV) ctest --output-on-failure -j 2 -L unit
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -j 2 -R '$(ASAN_E2E)'

# sessmax demo exits with the verdict's code; GNU make can only exit 2 for a failed recipe, so the
# recipe names the code and its meaning (`sessmax help`) before make's own "Error N" line.
demo: deps
	@$(MAKE) --no-print-directory build
	@$(BUILD)/sessmax demo; rc=$$?; [ $$rc = 0 ] || \
	  echo "make demo: sessmax demo exited $$rc: $$($(BUILD)/sessmax help | sed -n "s/^  $$rc  *\([^(]*[^ (]\).*/\1/p")" >&2; \
	  exit $$rc

bench: deps
	@$(MAKE) --no-print-directory build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b || exit 1; done
	@echo "== bench/demo-predict.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/demo-predict.sh
	@echo "== bench/agent-density.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/agent-density.sh
	@echo "== bench/agent-density.sh 1000 0 (the loop-lag targets: 1,000 sessions, work-scale 0.02)"; \
	  RT=$$(chrt -r 10 true 2>/dev/null && echo 1 || echo 0) WORK_SCALE=0.02 RAMP_S=30 MEASURE_S=20 \
	  CONNECT_THREADS=16 SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/agent-density.sh 1000 0
	@echo "== bench/agent-latency.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/agent-latency.sh
	@echo "== bench/drive-copy.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/drive-copy.sh
	@echo "== bench/simhost-bandwidth.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/simhost-bandwidth.sh
	@echo "== bench/netem.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/netem.sh
	@echo "== bench/agent-flood.sh"; SESSMAX_BUILD_DIR=$(CURDIR)/$(BUILD) bash bench/agent-flood.sh

# libFuzzer harnesses (tests/fuzz) built with clang in $(FUZZ_BUILD), each run FUZZ_SECONDS
# (or FUZZ_RUNS executions when set).
fuzz: deps
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSESSMAX_FUZZ=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target sessmax_fuzzers
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh $(FUZZ_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
