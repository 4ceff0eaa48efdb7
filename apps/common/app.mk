# The four variants of an application, for apps/NAME/Makefile:
#
#   NAME := jacobi3d          # NAME.c is MPI-basic (with its #pragma bamboo lines),
#   include ../common/app.mk  # NAME_olap.c the hand-overlapped MPI-olap variant
#
# builds build/basic (mpicc), build/bamboo (bamboocc, the same source), build/olap (mpicc)
# and build/nocomm (mpicc, the basic source with message passing switched off by
# common/nocomm.h). Set LDLIBS before the include for libraries (e.g. -lopenblas).
REPO := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
COMMON := $(REPO)/apps/common
BUILD := build
CFLAGS ?= -O3 -march=native
WARNINGS := -Wall -Wno-unknown-pragmas
LDLIBS += -lm
HEADERS := $(wildcard *.h) $(wildcard $(COMMON)/*.h)
RUNTIME_LIB := $(REPO)/build/runtime/libbamboo.a

.PHONY: all clean
all: $(BUILD)/basic $(BUILD)/bamboo $(BUILD)/olap $(BUILD)/nocomm

$(BUILD):
	@mkdir -p $@

$(BUILD)/basic: $(NAME).c $(HEADERS) | $(BUILD)
	mpicc $(CFLAGS) $(WARNINGS) -I$(COMMON) -o $@ $(NAME).c $(LDLIBS)

$(BUILD)/bamboo: $(NAME).c $(HEADERS) $(RUNTIME_LIB) | $(BUILD)
	$(REPO)/bin/bamboocc $(CFLAGS) $(WARNINGS) -I$(COMMON) -o $@ $(NAME).c $(LDLIBS)

$(BUILD)/olap: $(NAME)_olap.c $(HEADERS) | $(BUILD)
	mpicc $(CFLAGS) $(WARNINGS) -I$(COMMON) -o $@ $(NAME)_olap.c $(LDLIBS)

$(BUILD)/nocomm: $(NAME).c $(HEADERS) | $(BUILD)
	mpicc $(CFLAGS) $(WARNINGS) -I$(COMMON) -include $(COMMON)/nocomm.h -o $@ $(NAME).c $(LDLIBS)

# bamboocc links the runtime: build it (and install what it needs) if it is not there.
$(RUNTIME_LIB):
	$(MAKE) -C $(REPO) build

clean:
	rm -rf $(BUILD)
