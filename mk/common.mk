# Flags shared by every subsystem.

# Host C (compiler, simulator harness, C model, tools).
HOST_CC      ?= gcc
HOST_CXX     ?= g++
# The release every host tool prints with --version (one definition).
TESSEL_VERSION := 0.1.0
HOST_CFLAGS  := -std=c11 -O2 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE -DTESSEL_VERSION='"$(TESSEL_VERSION)"'
HOST_CXXFLAGS:= -std=c++17 -O2 -g -Wall -Wextra -Werror
# Host tests also run under AddressSanitizer and UBSan.
SAN_FLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# Seconds each fuzzer of `make fuzz` runs (each reader's own X_FUZZ_TIME overrides it).
FUZZ_TIME    ?= 300

# RISC-V firmware: rv32im with picolibc. -misa-spec=2.2 keeps Zicsr/Zifencei
# implied (GCC 12 otherwise needs them spelled out) while matching picolibc's
# only rv32 multilib, rv32im/ilp32.
RV_PREFIX    := riscv64-unknown-elf-
RV_CC        := $(RV_PREFIX)gcc
RV_OBJCOPY   := $(RV_PREFIX)objcopy
RV_OBJDUMP   := $(RV_PREFIX)objdump
RV_ARCH      := -march=rv32im -misa-spec=2.2 -mabi=ilp32
RV_CFLAGS    := $(RV_ARCH) -std=c11 -O2 -g -Wall -Wextra -Wshadow -Werror \
                -ffunction-sections -fdata-sections --specs=picolibc.specs
# The size build, for the core-sequenced NPU's firmware (the boards it is for
# are short of memory, docs/npu-seq.md): -Os, link-time optimisation (GCC
# inlines and drops across the runtime's, the C model's and shared/'s objects
# at the link, which runs it by itself when it meets their LTO code; =auto:
# its jobs in parallel, without the serial-compilation warning) and the
# prologues and epilogues of -msave-restore (libgcc's shared register saves).
# No result changes: -ffp-contract=off stays where it was, no fast-math.
# Archives of such objects need the LTO plugin's index: RV_AR_LTO.
RV_SIZE_CFLAGS := -Os -flto=auto -msave-restore
RV_AR_LTO      := $(RV_PREFIX)gcc-ar

# Verilator.
VERILATOR    ?= verilator
VFLAGS       := -O3 --x-assign fast --x-initial fast --noassert -Wno-fatal

# ---- quiet output -------------------------------------------------------------
# `make` prints one line per file it builds, kbuild style (`  CC  compiler/ir/ir.c`,
# `  LD  build/bin/tessel`, `  VERILATE  npu8`), so warnings stand out; `make V=1`
# prints the full commands instead. A recipe reads:
#	$(call say,CC,$<)
#	$(Q)$(HOST_CC) ... -c $< -o $@
V ?= 0
ifeq ($(V),1)
Q   :=
say  =
else
Q   := @
say  = @printf '  %-9s %s\n' '$(1)' '$(2)'
endif

# ---- host libraries: one template for the normal, sanitizer and fuzzer builds --
# $(call host_lib,NAME,SOURCES) with NAME_CFLAGS set (read when a recipe runs, so
# later += count) defines, from the one explicit source list:
#   build/lib/libNAME.a        HOST_CC, NAME_CFLAGS                 (the tools)
#   build/lib/libNAME-asan.a   the same under SAN_FLAGS, TESSEL_TEST_BUILD (every test)
#   build/lib/libNAME-fuzz.a   clang with libFuzzer's coverage, ASan, UBSan (the fuzzers)
# Objects go to build/obj/NAME{,-asan,-fuzz}/<source path>.o with -MMD dependencies;
# NAME_OBJS, NAME_OBJS_SAN list them. NAME_DEPS (order-only) must exist before any
# object is compiled: the generated headers the sources include.
FUZZ_CFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LDFLAGS:= -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
host_obj_of  = $(patsubst %.c,$(BUILD)/obj/$(1)/%.o,$(2))

define host_lib
$(1)_OBJS      := $$(call host_obj_of,$(1),$(2))
$(1)_OBJS_SAN  := $$(call host_obj_of,$(1)-asan,$(2))
$(1)_OBJS_FUZZ := $$(call host_obj_of,$(1)-fuzz,$(2))
$(BUILD)/lib/lib$(1).a: $$($(1)_OBJS)
$(BUILD)/lib/lib$(1)-asan.a: $$($(1)_OBJS_SAN)
$(BUILD)/lib/lib$(1)-fuzz.a: $$($(1)_OBJS_FUZZ)
$(BUILD)/lib/lib$(1).a $(BUILD)/lib/lib$(1)-asan.a $(BUILD)/lib/lib$(1)-fuzz.a:
	$$(call say,AR,$$@)
	@mkdir -p $$(@D); rm -f $$@
	$$(Q)ar rcs $$@ $$^
$(BUILD)/obj/$(1)/%.o: %.c | $$($(1)_DEPS)
	$$(call say,CC,$$<)
	@mkdir -p $$(@D)
	$$(Q)$$(HOST_CC) $$($(1)_CFLAGS) -MMD -MP -c $$< -o $$@
$(BUILD)/obj/$(1)-asan/%.o: %.c | $$($(1)_DEPS)
	$$(call say,CC-ASAN,$$<)
	@mkdir -p $$(@D)
	$$(Q)$$(HOST_CC) $$($(1)_CFLAGS) $$(SAN_FLAGS) -DTESSEL_TEST_BUILD -MMD -MP -c $$< -o $$@
$(BUILD)/obj/$(1)-fuzz/%.o: %.c | $$($(1)_DEPS)
	$$(call say,CC-FUZZ,$$<)
	@mkdir -p $$(@D)
	$$(Q)clang $$(filter-out -O2,$$($(1)_CFLAGS)) -O1 -Wno-unused-command-line-argument $$(FUZZ_CFLAGS) -DTESSEL_TEST_BUILD -MMD -MP -c $$< -o $$@
-include $$(wildcard $$($(1)_OBJS:.o=.d) $$($(1)_OBJS_SAN:.o=.d) $$($(1)_OBJS_FUZZ:.o=.d))
endef

# $(call host_link,OUT,OBJECTS AND LIBRARIES,FLAGS): one link line, quiet.
define host_link
	$(call say,LD,$(1))
	@mkdir -p $(dir $(1))
	$(Q)$(HOST_CC) $(3) -o $(1) $(2)
endef
