# firmware/runtime/fallback.mk: the fallback ops (tfw_fallback.c), shared by
# the firmware, the host C model and the compiler's reference executor.
# Included from firmware/runtime/rules.mk.
#
#   make test-fallback   cmocka under ASan/UBSan (tests/runtime/test_fallback.c),
#                        ending with the firmware's checksums (RV32 on tessel-iss)
#                        compared with the host's: bit-exact across machines
#   make bench-fallback  cycles per op on the RV32 core (tessel-sim) and the
#                        exhaustive tfw_expf error over [-104, 89]
#
# tfw_fallback.c is shared/'s: its host and RV32 builds (shared/rules.mk) both
# use -ffp-contract=off (no fused multiply-add, so both machines round alike).
# The tests link those builds; only the tests' own sources are compiled here.

TFW_FALLBACK_HDRS   := shared/tfw_fallback.h shared/tfw_math.h shared/tpkg_format.h
TFW_FALLBACK_CFLAGS := -ffp-contract=off $(SHARED_INC)

FB_OBJ      := $(BUILD)/obj/fallback
FB_TEST     := $(FB_OBJ)/test_fallback
FB_FW_ELF   := $(FW_OUT)/tests/fw_fallback_crc.elf
FB_CK_HDRS  := tests/runtime/fb_checksum.h tests/runtime/fb_record.h tests/runtime/ck_rand.h shared/crc32.h $(TFW_FALLBACK_HDRS)
FB_HOST_SRC := tests/runtime/test_fallback.c tests/runtime/fb_checksum.c
FB_FW_SRC   := tests/runtime/fw_fallback_crc.c tests/runtime/fb_checksum.c firmware/runtime/tfw_ops_all.c
FB_FW_OBJS  := $(patsubst %.c,$(FB_OBJ)/rv32/%.o,$(FB_FW_SRC)) $(SHARED_RV_OBJ)/crc32.o $(SHARED_RV_OBJ)/tpkg_check.o \
               $(SHARED_RV_FB_OBJS)

# Host: the test and everything it links, under ASan/UBSan.
$(FB_TEST): $(FB_HOST_SRC) $(FB_CK_HDRS) $(SHARED_LIB_SAN)
	$(call host_link,$@,$(FB_HOST_SRC) $(SHARED_LIB_SAN) -lcmocka -lm,$(HOST_CFLAGS) $(SAN_FLAGS) $(TFW_FALLBACK_CFLAGS) -Itests/runtime)

# RV32: the same checksum code on the firmware base.
$(FB_OBJ)/rv32/%.o: %.c $(FB_CK_HDRS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(FW_CFLAGS) $(TFW_FALLBACK_CFLAGS) -Itests/runtime -c $< -o $@
$(FB_FW_ELF): $(FB_FW_OBJS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$(FB_FW_OBJS))

ALL         += $(FB_TEST) $(FB_FW_ELF)
TEST_SUITES += fallback
.PHONY: test-fallback
test-fallback: $(FB_TEST) $(FB_FW_ELF) $(TESSEL_ISS)
	@$(FB_TEST) $(TESSEL_ISS) $(FB_FW_ELF)

# ---- benchmark: cost on the RV32 core, and tfw_expf's error on every input ----
FB_BENCH_ELF  := $(FW_OUT)/bench-fallback.elf
FB_BENCH_OBJS := $(FB_OBJ)/rv32/tests/runtime/bench_fallback_fw.o $(FB_OBJ)/rv32/firmware/runtime/tfw_ops_all.o \
                 $(SHARED_RV_OBJ)/tpkg_check.o $(SHARED_RV_OBJ)/crc32.o \
                 $(SHARED_RV_FB_OBJS)
FB_EXHAUSTIVE := $(FB_OBJ)/expf_exhaustive
$(FB_BENCH_ELF): $(FB_BENCH_OBJS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim.ld,$(FB_BENCH_OBJS))
$(FB_EXHAUSTIVE): tests/runtime/expf_exhaustive.c $(TFW_FALLBACK_HDRS) $(SHARED_LIB)
	$(call host_link,$@,$< $(SHARED_LIB) -lm,$(HOST_CFLAGS) $(TFW_FALLBACK_CFLAGS))

ALL     += $(FB_BENCH_ELF)
BENCHES += fallback
.PHONY: bench-fallback
bench-fallback: $(FB_BENCH_ELF) $(FB_EXHAUSTIVE) $(TESSEL_ISS) $(TESSEL_SIM)
	@$(TESSEL_SIM) --max-cycles 2000000000 $(FB_BENCH_ELF)
	@$(FB_EXHAUSTIVE)
