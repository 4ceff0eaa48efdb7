# Bamboo: `make demo` (set up, build, run the 2D Jacobi example) and `make test`.
.PHONY: all setup build runtime loopcomm commdir demo test test-translator test-runtime test-e2e test-mpich test-sanitize bench clean

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

BUILD := build
RUNTIME_BUILD := $(BUILD)/runtime
MPICH_BUILD := $(BUILD)/runtime-mpich
JOBS ?= 2
TEST_JOBS ?= 3

all: build

setup:
	@scripts/setup

build: setup runtime loopcomm commdir

# Quiet unless something goes wrong (CMAKE_RULE_MESSAGES: no per-file progress lines).
runtime:
	@echo "building the runtime ($(RUNTIME_BUILD))"
	@cmake -S runtime -B $(RUNTIME_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_RULE_MESSAGES=OFF >/dev/null
	@cmake --build $(RUNTIME_BUILD) -j$(JOBS) -- --no-print-directory -s | sed '/Built target/d'

# Loop communication's run-time library (seed 004; docs/loop-communication.md): C11 over
# OpenSHMEM, so oshcc. Rebuilt when a source or header changes.
LOOPCOMM := runtime/loopcomm
LOOPCOMM_BUILD := $(BUILD)/loopcomm
LOOPCOMM_SRC := $(wildcard $(LOOPCOMM)/src/*.c)
LOOPCOMM_OBJ := $(patsubst $(LOOPCOMM)/src/%.c,$(LOOPCOMM_BUILD)/%.o,$(LOOPCOMM_SRC)) $(LOOPCOMM_BUILD)/shmem_quiet.o
LOOPCOMM_CFLAGS := -std=c11 -O2 -Wall -Wextra -I$(LOOPCOMM)/include -I$(LOOPCOMM)/src -Iruntime/commdir/include

loopcomm: setup $(LOOPCOMM_BUILD)/libbamboo_loopcomm.a

$(LOOPCOMM_BUILD)/libbamboo_loopcomm.a: $(LOOPCOMM_OBJ)
	@echo "building the loop communication runtime ($@)"
	@ar rcs $@ $^

$(LOOPCOMM_BUILD)/%.o: $(LOOPCOMM)/src/%.c $(wildcard $(LOOPCOMM)/src/*.h) $(LOOPCOMM)/include/bamboo_loopcomm.h runtime/commdir/include/bamboo_commdir.h
	@mkdir -p $(LOOPCOMM_BUILD)
	@oshcc $(LOOPCOMM_CFLAGS) -c $< -o $@

# shmem_quiet made whole, shared with the comm directives' library (below)
$(LOOPCOMM_BUILD)/shmem_quiet.o: runtime/commdir/src/shmem_quiet.c runtime/commdir/include/bamboo_commdir.h
	@mkdir -p $(LOOPCOMM_BUILD)
	@oshcc $(LOOPCOMM_CFLAGS) -c $< -o $@

# What OpenSHMEM programs' lowered comm directives call (docs/comm-directives.md): SHMEM's
# state, for a clear error in a region that runs before shmem_init. (The MPI half is built with
# the runtime, against its MPI.)
COMMDIR := runtime/commdir
COMMDIR_BUILD := $(BUILD)/commdir

COMMDIR_SHMEM_OBJ := $(COMMDIR_BUILD)/shmem_ready.o $(COMMDIR_BUILD)/shmem_sync.o $(COMMDIR_BUILD)/shmem_quiet.o

commdir: setup $(COMMDIR_BUILD)/libbamboo_commdir_shmem.a

$(COMMDIR_BUILD)/libbamboo_commdir_shmem.a: $(COMMDIR_SHMEM_OBJ)
	@echo "building the comm directives' SHMEM library ($@)"
	@ar rcs $@ $^

$(COMMDIR_BUILD)/%.o: $(COMMDIR)/src/%.c $(COMMDIR)/include/bamboo_commdir.h
	@mkdir -p $(COMMDIR_BUILD)
	@oshcc -std=c11 -O2 -Wall -Wextra -I$(COMMDIR)/include -c $< -o $@

demo: build
	@apps/jacobi2d/demo

test: build
	@scripts/test

test-translator: setup
	python3 -m pytest -q translator/tests

test-runtime: build
	ctest --test-dir $(RUNTIME_BUILD) -j $(TEST_JOBS) --output-on-failure

# As scripts/test runs them: several at a time, then the ones that load the machine alone.
test-e2e: build
	python3 -m pytest -q -n $(TEST_JOBS) --dist loadgroup -m "not exclusive" tests/e2e
	python3 -m pytest -q -m exclusive tests/e2e

# The runtime built and tested against MPICH too (installed if missing; `mpicc` and `mpirun`
# stay Open MPI's), then programs end to end through bamboocc under MPICH.
test-mpich: setup
	@scripts/setup-mpich
	@cmake -S runtime -B $(MPICH_BUILD) -DCMAKE_BUILD_TYPE=Release -DMPI_C_COMPILER=mpicc.mpich \
		-DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich >/dev/null
	@cmake --build $(MPICH_BUILD) -j$(JOBS)
	ctest --test-dir $(MPICH_BUILD) --output-on-failure
	@scripts/test-mpich-e2e

# The runtime built with AddressSanitizer + UBSan and with ThreadSanitizer (build/runtime-asan,
# build/runtime-tsan), each running the runtime's ctest and the end-to-end tests; a sanitizer
# report fails it. Not part of `make test`: it takes about 30 minutes (docs/testing.md).
test-sanitize: setup
	@scripts/test-sanitize

bench: build
	bench/micro/run

clean:
	rm -rf $(BUILD) apps/*/build
