# shared/rules.mk: code built for both the host tools and the RV32 firmware, and
# host code that several trees use. No tree compiles these sources itself: hosts
# link the libraries built here, the firmware its own build of the same list
# (firmware/runtime/runtime.mk compiles SHARED_RV_SRCS for each target).
#
#   crc32.c            CRC-32 (packages, host link)
#   tpkg_format.h      the package format: byte layout shared by writer and readers
#   tpkg_check.c       the package checker the firmware and `tessel` both run
#   tessel_rt.h        the runtime's public header; tfw_exec.c its executor (kernels,
#                      fallback ops, counters), tfw_fallback.c the fallback records,
#                      tfw_ops*.c and tfw_math.c the control core's kernels
#                      (tfw_ops.def), bit-identical on every engine
#   link_proto.c       the host link's framing (docs/host-link.md)
#   npy.c              .npy reader and writer (host only)
#   json.c             strict JSON reader (host only: profiles, tuning logs)
#   json_write.c       the one JSON string writer (profiles, reports, tuning logs)
#   host_file.h        bounded whole-file reads, regular-file checks (host only)
#   arena.c, diag.c    the host tools' allocator (with failure injection for tests)
#                      and diagnostics (errors as values with messages)
#
#   build/lib/libtessel-shared{,-asan,-fuzz}.a   the host builds (mk/common.mk host_lib)

# The control core's ops: the fallback records' executor and its kernels.
SHARED_FB_SRCS   := shared/tfw_fallback.c shared/tfw_ops.c shared/tfw_math.c shared/tfw_ops_elem.c shared/tfw_ops_move.c shared/tfw_ops_reduce.c shared/tfw_ops_softmax.c shared/tfw_ops_nn.c
SHARED_RV_SRCS   := shared/crc32.c shared/tpkg_check.c shared/tfw_exec.c $(SHARED_FB_SRCS) shared/link_proto.c
SHARED_HOST_SRCS := $(SHARED_RV_SRCS) shared/arena.c shared/diag.c shared/npy.c shared/json.c \
                    shared/json_write.c
SHARED_INC       := -Ishared
# -ffp-contract=off: the fallback ops' float arithmetic must round alike on every
# engine (tfw_fallback.h); the package checker decodes with the generated ISA header.
tessel-shared_CFLAGS = $(HOST_CFLAGS) -ffp-contract=off $(SHARED_INC) -I$(BUILD)/gen
tessel-shared_DEPS   = $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h
$(eval $(call host_lib,tessel-shared,$(SHARED_HOST_SRCS)))

SHARED_LIB      := $(BUILD)/lib/libtessel-shared.a
SHARED_LIB_SAN  := $(BUILD)/lib/libtessel-shared-asan.a
SHARED_LIB_FUZZ := $(BUILD)/lib/libtessel-shared-fuzz.a
ALL += $(SHARED_LIB) $(SHARED_LIB_SAN)

# The RV32 build of the same code, for the firmware: build/obj/rv32/shared/*.o,
# archived into each target's runtime library (firmware/runtime/runtime.mk).
SHARED_RV_OBJ  := $(BUILD)/obj/rv32/shared
SHARED_RV_OBJS := $(patsubst shared/%.c,$(SHARED_RV_OBJ)/%.o,$(SHARED_RV_SRCS))
SHARED_RV_FB_OBJS := $(patsubst shared/%.c,$(SHARED_RV_OBJ)/%.o,$(SHARED_FB_SRCS))
$(SHARED_RV_OBJ)/%.o: shared/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h
	$(call say,CC-RV32,$<)
	@mkdir -p $(@D)
	$(Q)$(RV_CC) $(FW_CFLAGS) -ffp-contract=off -DTFW_WEAK_KERNELS $(SHARED_INC) -I$(BUILD)/gen -MMD -MP -c $< -o $@
-include $(wildcard $(SHARED_RV_OBJS:.o=.d))

# The same sources at -Os, for the core-sequenced NPU's runtime library
# (firmware/runtime/runtime.mk): build/obj/rv32-os/shared/*.o. The boards it
# is for are short of memory (docs/npu-seq.md); -Os changes no result
# (-ffp-contract=off as above, no fast-math).
SHARED_RV_OS_OBJ := $(BUILD)/obj/rv32-os/shared
SHARED_RV_OS_OBJS := $(patsubst shared/%.c,$(SHARED_RV_OS_OBJ)/%.o,$(SHARED_RV_SRCS))
SHARED_RV_OS_FB_OBJS := $(patsubst shared/%.c,$(SHARED_RV_OS_OBJ)/%.o,$(SHARED_FB_SRCS))
$(SHARED_RV_OS_OBJ)/%.o: shared/%.c | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_memmap.h
	$(call say,CC-RV32,$@)
	@mkdir -p $(@D)
	$(Q)$(RV_CC) $(FW_CFLAGS) $(RV_SIZE_CFLAGS) -ffp-contract=off -DTFW_WEAK_KERNELS $(SHARED_INC) -I$(BUILD)/gen -MMD -MP -c $< -o $@
-include $(wildcard $(SHARED_RV_OS_OBJS:.o=.d))
