# Tessel: the one entry point.
#
#   make setup   install (apt-get, idempotent) what `make demo` and `make test` need
#   make         build the compiler, the simulator and the firmware
#   make demo    compile the bundled model, run it on the cycle-accurate SoC, profile it
#   make test    build everything and run every test suite
#   make list-tests  each suite: what it checks, how long it took here
#   make bench   run the benchmarks and print their figures
#
# Each folder adds its own rules in its one .mk: what it builds (ALL), its test
# suites (TEST_SUITES, each with a `test-<name>` rule), its benchmarks (BENCHES,
# each with a `bench-<name>` rule) and its fuzzers (FUZZERS, each with a
# `fuzz-<name>` rule for a long run). docs/architecture.md draws the tree.
# `make V=1` prints full commands; by default one line per file built.

.DEFAULT_GOAL := all
SHELL := /bin/bash

TARGET  ?= npu8
BUILD   := build
BIN     := $(BUILD)/bin

ALL         :=
TEST_SUITES :=
BENCHES     :=
FUZZERS     :=

# In dependency order: a file may use the variables of those before it.
#   targets   the ISA and target configs, their generator and generated tables
#   shared    code built for the host and the firmware
#   sim       the C model of the NPU, the ISS, the SoC simulator
#   compiler  the tessel compiler and its tools
#   firmware  the RV32 firmware: base, NPU driver, runtime
#   rtl-model the NPU's RTL benches, lint and synthesis (the SoC's are in sim)
#   boards    one folder per board
#   tests     the shared test data, its checks and generators
include mk/common.mk
include targets/rules.mk
include shared/rules.mk
include sim/rules.mk
include compiler/rules.mk
include firmware/rules.mk
include rtl-model/rules.mk
include boards/rules.mk
include tests/rules.mk

.PHONY: all setup setup-demo setup-test demo test test-suites list-tests bench fuzz clean

all: $(ALL)

setup: setup-test
setup-demo:
	@bash mk/setup.sh demo
setup-test:
	@bash mk/setup.sh test

# `make demo` needs only the simulation toolchain: it builds just what it runs.
DEMO_DEPS := $(BIN)/tessel $(BIN)/tessel-sim $(BUILD)/firmware/npu8/tessel-fw.elf
demo: setup-demo
	@$(MAKE) --no-print-directory $(DEMO_DEPS)
	@bash mk/demo.sh

# `make test` sets up, builds, then runs every suite through the runner, which
# prints per-suite times and ends with the line "N passed, N failed".
# Builds (before the suites and a suite's own prerequisites) run one job per
# core; the suites themselves run one after the other.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# The build's output is kept in build/make-all.log: the layout suite checks that
# it is one line per file built.
test: setup-test
	@mkdir -p $(BUILD)
	@set -o pipefail; $(MAKE) --no-print-directory -j$(TEST_JOBS) all 2>&1 | tee $(BUILD)/make-all.log
	@$(MAKE) --no-print-directory test-suites

test-suites:
	@TEST_JOBS=$(TEST_JOBS) bash tests/run-suites.sh $(TEST_SUITES)

# Every suite, one line on what it checks, and its time in the last run here.
list-tests:
	@bash tests/list-tests.sh $(TEST_SUITES)

bench: setup-test
	@$(MAKE) --no-print-directory all
	@failed=; for b in $(BENCHES); do $(MAKE) --no-print-directory bench-$$b || failed="$$failed $$b"; done; \
	if [ -n "$$failed" ]; then echo "benchmarks that failed:$$failed"; exit 1; fi

fuzz: setup-test
	@$(MAKE) --no-print-directory all
	@set -e; for f in $(FUZZERS); do $(MAKE) --no-print-directory fuzz-$$f; done

clean:
	rm -rf $(BUILD)
