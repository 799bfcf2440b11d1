# targets/rules.mk: NPU target configurations, the command-stream ISA and its
# generator, the C model of the NPU (sim/npu-model) and its tests.
#
#   build/bin/tsl-gen                      generator (targets/gen)
#   build/gen/tessel_isa.h, tessel_isa_tables.c, tessel_isa_pkg.sv
#   build/gen/<target>/tessel_target.h, tessel_target_pkg.sv   (npu4 npu8 npu16)
#   build/gen/tessel_targets.{h,c}         every target as a run-time table
#   make test-isa-gen                      generated C/SV compile; encode/decode round trips
#   make test-isa-docs                     docs/{isa,targets,profile-format,memory-map,core}.md tables are current
#   make isa-docs                          rewrite those tables from targets/isa.def, *.cfg, memmap.def
#   build/gen/tessel_memmap.h, tessel_memmap_pkg.sv, tessel_memmap.ld   (targets/memmap.def)
#   make test-memmap                       generated header/package/ld build; no hand-written copy left

TSL_GEN      := $(BIN)/tsl-gen
TSL_GEN_DIR  := $(BUILD)/gen
TSL_ISA_DEF  := targets/isa.def
TSL_TARGETS  := npu2 npu4 npu8 npu16 npu8-arty
TSL_CFGS     := $(patsubst %,targets/%.cfg,$(TSL_TARGETS))
TSL_DOCS     := docs/isa.md docs/targets.md docs/profile-format.md
TSL_MEMMAP_DEF  := targets/memmap.def
TSL_MEMMAP_DOCS := docs/memory-map.md docs/core.md
TSL_MEMMAP_OUT  := $(TSL_GEN_DIR)/tessel_memmap.h $(TSL_GEN_DIR)/tessel_memmap_pkg.sv \
                   $(TSL_GEN_DIR)/tessel_memmap.ld
TSL_ISA_OUT  := $(TSL_GEN_DIR)/tessel_isa.h $(TSL_GEN_DIR)/tessel_isa_tables.c \
                $(TSL_GEN_DIR)/tessel_isa_pkg.sv
TSL_TGTS_OUT := $(TSL_GEN_DIR)/tessel_targets.h $(TSL_GEN_DIR)/tessel_targets.c
TSL_TGT_OUT  := $(foreach t,$(TSL_TARGETS),$(TSL_GEN_DIR)/$(t)/tessel_target.h \
                  $(TSL_GEN_DIR)/$(t)/tessel_target_pkg.sv)
# Everything generated: other subsystems may depend on this list.
TSL_GENERATED := $(TSL_ISA_OUT) $(TSL_TGTS_OUT) $(TSL_TGT_OUT) $(TSL_MEMMAP_OUT)
TSL_TEST_OBJ := $(BUILD)/obj/npu-model-tests

ALL += $(TSL_GEN) $(TSL_GENERATED)

# shared/host_file.h: opening inputs and outputs without blocking on a FIFO.
TSL_GEN_SRCS := targets/gen/tsl_gen.c targets/gen/def_lex.c targets/gen/isa_parse.c targets/gen/cfg_parse.c \
                targets/gen/memmap_parse.c targets/gen/emit_c.c targets/gen/emit_sv.c targets/gen/emit_md.c \
                targets/gen/emit_memmap.c
$(TSL_GEN): $(TSL_GEN_SRCS) $(wildcard targets/gen/*.h) shared/host_file.h
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -Ishared -o $@ $(filter %.c,$^)

# tsl-gen replaces an output only when its text changes (so a rebuilt
# generator does not rebuild everything that includes the headers); an
# unchanged output keeps its old time, so these rules run again on the next
# make (a few ms): quietly.
$(TSL_ISA_OUT) &: $(TSL_GEN) $(TSL_ISA_DEF)
	@mkdir -p $(TSL_GEN_DIR)
	@$(TSL_GEN) isa $(TSL_ISA_DEF) $(TSL_GEN_DIR)

$(TSL_TGTS_OUT) &: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS)
	@mkdir -p $(TSL_GEN_DIR)
	@$(TSL_GEN) targets $(TSL_ISA_DEF) $(TSL_GEN_DIR) $(TSL_CFGS)

$(TSL_GEN_DIR)/%/tessel_target.h $(TSL_GEN_DIR)/%/tessel_target_pkg.sv: targets/%.cfg $(TSL_GEN) $(TSL_ISA_DEF)
	@mkdir -p $(@D)
	@$(TSL_GEN) target $(TSL_ISA_DEF) $< $(@D)

$(TSL_MEMMAP_OUT) &: $(TSL_GEN) $(TSL_MEMMAP_DEF)
	@mkdir -p $(TSL_GEN_DIR)
	@$(TSL_GEN) memmap $(TSL_MEMMAP_DEF) $(TSL_GEN_DIR)

# ---- isa-gen: generated headers and packages, encode/decode round trips ----
$(TSL_TEST_OBJ)/test_isa_gen: tests/npu-model/test_isa_gen.c $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(SAN_FLAGS) -I$(TSL_GEN_DIR) -o $@ $< \
	  $(TSL_GEN_DIR)/tessel_isa_tables.c $(TSL_GEN_DIR)/tessel_targets.c -lcmocka

TEST_SUITES += isa-gen isa-docs
.PHONY: test-isa-gen test-isa-docs isa-docs

test-isa-gen: $(TSL_TEST_OBJ)/test_isa_gen $(TSL_GENERATED)
	@bash tests/npu-model/isa-gen.sh $(TSL_GEN_DIR) $(TSL_TEST_OBJ)/test_isa_gen $(TSL_TARGETS)

# ---- isa-docs: the generated tables in docs/ are current -------------------
# tsl_doc_cmd DOC: the tsl-gen command line that regenerates DOC's blocks
tsl_doc_cmd = $(if $(filter $(1),$(TSL_MEMMAP_DOCS)),memmap-doc $(TSL_MEMMAP_DEF),doc $(TSL_ISA_DEF))
tsl_doc_cfgs = $(if $(filter $(1),$(TSL_MEMMAP_DOCS)),,$(TSL_CFGS))

test-isa-docs: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS) $(TSL_MEMMAP_DEF)
	@mkdir -p $(TSL_GEN_DIR)/docs
	@pass=0; fail=0; $(foreach d,$(TSL_DOCS) $(TSL_MEMMAP_DOCS), \
	  out=$(TSL_GEN_DIR)/docs/$(notdir $(d)); \
	  if $(TSL_GEN) $(call tsl_doc_cmd,$(d)) $(d) $$out $(call tsl_doc_cfgs,$(d)) && diff -u $(d) $$out; then \
	    pass=$$((pass+1)); echo "ok   $(d)"; \
	  else fail=$$((fail+1)); echo "FAIL $(d) is stale: run 'make isa-docs' and commit it"; fi;) \
	echo "$$pass passed, $$fail failed"; [ $$fail -eq 0 ]

isa-docs: $(TSL_GEN) $(TSL_ISA_DEF) $(TSL_CFGS) $(TSL_MEMMAP_DEF)
	@mkdir -p $(TSL_GEN_DIR)/docs
	@set -e; $(foreach d,$(TSL_DOCS) $(TSL_MEMMAP_DOCS), \
	  out=$(TSL_GEN_DIR)/docs/$(notdir $(d)); \
	  $(TSL_GEN) $(call tsl_doc_cmd,$(d)) $(d) $$out $(call tsl_doc_cfgs,$(d)); \
	  cmp -s $(d) $$out || { cp $$out $(d); echo "updated $(d)"; };)

# ---- memmap: the generated map builds everywhere, and no copy is written by hand --
TEST_SUITES += memmap
.PHONY: test-memmap
test-memmap: $(TSL_GEN) $(TSL_MEMMAP_OUT)
	@bash tests/npu-model/memmap-gen.sh $(TSL_GEN) $(TSL_MEMMAP_DEF) $(TSL_GEN_DIR)

# ---- the generated tables as a host library: build/lib/libtessel-gen.a ------
tessel-gen_CFLAGS = $(HOST_CFLAGS) -I$(TSL_GEN_DIR)
tessel-gen_DEPS   = $(TSL_ISA_OUT) $(TSL_TGTS_OUT)
$(eval $(call host_lib,tessel-gen,$(TSL_GEN_DIR)/tessel_isa_tables.c $(TSL_GEN_DIR)/tessel_targets.c))
GEN_LIB      := $(BUILD)/lib/libtessel-gen.a
GEN_LIB_SAN  := $(BUILD)/lib/libtessel-gen-asan.a
GEN_LIB_FUZZ := $(BUILD)/lib/libtessel-gen-fuzz.a
ALL += $(GEN_LIB) $(GEN_LIB_SAN)
