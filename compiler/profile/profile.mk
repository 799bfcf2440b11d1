# compiler/profile/profile.mk: the profiler; profile_cli.c is `tessel profile`.
# Library build/lib/libtessel-profile.a (compiler/rules.mk).
#
#   sources                     profile loader, rows, table/CSV/JSON, Chrome trace,
#                               SVG charts, compare (the JSON reader is shared/'s)
#   make test-profile           cmocka (reader, loader, counters, trace, SVG
#                               well-formedness) + FileCheck-14 golden reports
#   make test-fuzz-profile-short  ~10 s seeded libFuzzer run of the reader and loader
#   make fuzz-profile           long run (PROFILE_FUZZ_TIME seconds)

COMPILER_profile_SRCS := compiler/profile/profile_cli.c compiler/profile/profile_compare.c \
                         compiler/profile/profile_load.c compiler/profile/profile_rows.c \
                         compiler/profile/profile_svg.c compiler/profile/profile_table.c \
                         compiler/profile/profile_trace.c
PROFILE_TEST_OBJ := $(BUILD)/obj/profile-tests
PROFILE_FUZZ_TIME ?= $(FUZZ_TIME)

# ---- tests (tests/profile) ----
PROFILE_TEST_FLAGS := $(COMPILER_CFLAGS) $(SAN_FLAGS) -Itests/profile -DPROFILE_DIR='"$(CURDIR)/tests/profile"'

$(PROFILE_TEST_OBJ)/test-profile: tests/profile/test_profile.c tests/profile/xml_check.c tests/profile/xml_check.h \
    $(COMPILER_LINK_DEPS_SAN)
	$(call host_link,$@,$(filter %.c,$^) $(COMPILER_LINK_SAN) -lcmocka,$(PROFILE_TEST_FLAGS))

$(PROFILE_TEST_OBJ)/xml-check: tests/profile/xml_check_main.c tests/profile/xml_check.c tests/profile/xml_check.h
	$(call host_link,$@,$(filter %.c,$^),$(HOST_CFLAGS) $(SAN_FLAGS) -Itests/profile)

TEST_SUITES += profile fuzz-profile-short
FUZZERS     += profile
.PHONY: test-profile test-fuzz-profile-short fuzz-profile

test-profile: $(PROFILE_TEST_OBJ)/test-profile $(PROFILE_TEST_OBJ)/xml-check $(BIN)/tessel-asan $(BIN)/tessel-npu-model
	@bash tests/profile/run.sh $(PROFILE_TEST_OBJ) $(BIN)/tessel-asan

# libFuzzer on the JSON reader and the profile loader, seeded with the
# committed profiles; new inputs go to a scratch corpus under build/.
PROFILE_FUZZ_ARGS = -seed=1 -max_len=16384 -timeout=10 -rss_limit_mb=1024 -dict=tests/profile/json.dict \
  -artifact_prefix=$(PROFILE_TEST_OBJ)/ $(PROFILE_TEST_OBJ)/fuzz-corpus tests/profile/inputs

$(PROFILE_TEST_OBJ)/fuzz-profile: tests/profile/fuzz_profile.c $(COMPILER_LINK_DEPS_FUZZ)
	$(call compiler_fuzzer,$@,$<)

test-fuzz-profile-short: $(PROFILE_TEST_OBJ)/fuzz-profile
	@mkdir -p $(PROFILE_TEST_OBJ)/fuzz-corpus
	@if $(PROFILE_TEST_OBJ)/fuzz-profile -max_total_time=10 $(PROFILE_FUZZ_ARGS) 2>&1 | tail -n 5; \
	  [ $${PIPESTATUS[0]} -eq 0 ]; then echo "1 passed, 0 failed"; \
	else echo "0 passed, 1 failed"; exit 1; fi

fuzz-profile: $(PROFILE_TEST_OBJ)/fuzz-profile
	@mkdir -p $(PROFILE_TEST_OBJ)/fuzz-corpus
	$(PROFILE_TEST_OBJ)/fuzz-profile -max_total_time=$(PROFILE_FUZZ_TIME) $(PROFILE_FUZZ_ARGS)
