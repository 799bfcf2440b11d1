# compiler/profile.mk: the profiler (issue 9), included by compiler/rules.mk
# after the compiler's library lists.
#
#   compiler/profile/*.c        JSON reader, profile loader, table/CSV/JSON,
#                               Chrome trace, SVG charts, compare; they join the
#                               compiler library, compiler/profile_cli.c is
#                               `tessel profile` (picked up by the wildcard there)
#   make test-profile           cmocka (reader, loader, counters, trace, SVG
#                               well-formedness) + FileCheck-14 golden reports
#   make test-fuzz-profile-short  ~10 s seeded libFuzzer run of the reader and loader
#   make fuzz-profile           long run (PROFILE_FUZZ_TIME seconds)

PROFILE_SRCS     := $(wildcard compiler/profile/*.c)
PROFILE_OBJS     := $(patsubst compiler/%.c,$(COMPILER_OBJ)/%.o,$(PROFILE_SRCS))
PROFILE_OBJS_SAN := $(patsubst compiler/%.c,$(COMPILER_OBJ_SAN)/%.o,$(PROFILE_SRCS))
PROFILE_TEST_OBJ := $(BUILD)/obj/profile-tests
PROFILE_FUZZ_TIME ?= $(FUZZ_TIME)

COMPILER_LIB_SRCS     += $(PROFILE_SRCS)
COMPILER_LIB_OBJS     += $(PROFILE_OBJS)
COMPILER_LIB_OBJS_SAN += $(PROFILE_OBJS_SAN)

# The loader names counters by the generated table (tessel_isa.h).
$(PROFILE_OBJS) $(PROFILE_OBJS_SAN) $(COMPILER_OBJ)/profile_cli.o $(COMPILER_OBJ_SAN)/profile_cli.o: \
  | $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h

-include $(wildcard $(COMPILER_OBJ)/profile/*.d $(COMPILER_OBJ_SAN)/profile/*.d)

# ---- tests (tests/profile) ----
PROFILE_UNIT_SRCS := $(PROFILE_SRCS) compiler/arena.c compiler/diag.c compiler/in_file.c \
                     $(BUILD)/gen/tessel_isa_tables.c $(BUILD)/gen/tessel_targets.c
PROFILE_HDRS      := $(wildcard compiler/profile/*.h) $(BUILD)/gen/tessel_isa.h $(BUILD)/gen/tessel_targets.h

$(PROFILE_TEST_OBJ)/test-profile: tests/profile/test_profile.c tests/profile/xml_check.c tests/profile/xml_check.h \
    $(PROFILE_UNIT_SRCS) $(PROFILE_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Icompiler -Icompiler/profile -Itests/profile -I$(BUILD)/gen \
	  -DPROFILE_DIR='"$(CURDIR)/tests/profile"' -o $@ $(filter %.c,$^) -lcmocka -lm

$(PROFILE_TEST_OBJ)/xml-check: tests/profile/xml_check_main.c tests/profile/xml_check.c tests/profile/xml_check.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -Itests/profile -o $@ $(filter %.c,$^)

TEST_SUITES += profile fuzz-profile-short
FUZZERS     += profile
.PHONY: test-profile test-fuzz-profile-short fuzz-profile

test-profile: $(PROFILE_TEST_OBJ)/test-profile $(PROFILE_TEST_OBJ)/xml-check $(BIN)/tessel-asan $(BIN)/tessel-npu-model
	@bash tests/profile/run.sh $(PROFILE_TEST_OBJ) $(BIN)/tessel-asan

# libFuzzer on the JSON reader and the profile loader, seeded with the
# committed profiles; new inputs go to a scratch corpus under build/.
PROFILE_FUZZ_ARGS = -seed=1 -max_len=16384 -timeout=10 -rss_limit_mb=1024 -dict=tests/profile/json.dict \
  -artifact_prefix=$(PROFILE_TEST_OBJ)/ $(PROFILE_TEST_OBJ)/fuzz-corpus tests/profile/inputs

$(PROFILE_TEST_OBJ)/fuzz-profile: tests/profile/fuzz_profile.c $(PROFILE_UNIT_SRCS) $(PROFILE_HDRS)
	@mkdir -p $(@D)
	clang -std=c11 -O1 -g -Wall -Wextra -Wshadow -Werror -D_DEFAULT_SOURCE -Icompiler -Icompiler/profile \
	  -I$(BUILD)/gen -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $(filter %.c,$^) -lm

test-fuzz-profile-short: $(PROFILE_TEST_OBJ)/fuzz-profile
	@mkdir -p $(PROFILE_TEST_OBJ)/fuzz-corpus
	@if $(PROFILE_TEST_OBJ)/fuzz-profile -max_total_time=10 $(PROFILE_FUZZ_ARGS) 2>&1 | tail -n 5; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-profile: $(PROFILE_TEST_OBJ)/fuzz-profile
	@mkdir -p $(PROFILE_TEST_OBJ)/fuzz-corpus
	$(PROFILE_TEST_OBJ)/fuzz-profile -max_total_time=$(PROFILE_FUZZ_TIME) $(PROFILE_FUZZ_ARGS)
