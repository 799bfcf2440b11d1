# firmware/runtime/example.mk: the example application of the runtime
# library (docs/runtime-firmware.md): a firmware that links the digits
# model as a C array and runs it. Included from firmware/runtime/rules.mk.
#
#   build/firmware/npu8/digits-app.elf   the example (linker/sim-pkg.ld)
#   build/obj/fw-example/minimal-app.elf the minimal example of the document
#   make test-fw-app                     runs both on build/npu8/tessel-sim and checks their
#                                        output; damaged packages and a small window
#                                        give the runtime's errors (tests/fw-app/run.sh)
#   make bench-fw-app                    load and inference cycles, code size
#
# Everything the firmware embeds is made at build time, without python:
#   tessel compile --emit-c   -> digits_pkg.c (+ digits.tpkg, the same bytes)
#   tessel ref --calib        -> digits_ref.npy, the int8 reference on the test set
#   digits-data (host C)      -> digits_images.h: the first EX_COUNT images, labels,
#                                reference classes and output bit patterns

EX_TARGET := npu8
EX_SRC    := firmware/runtime/example
EX_OBJ    := $(BUILD)/obj/fw-example
EX_MODEL  := tests/models/digits
EX_COUNT  := 16
EX_ELF    := $(FW_OUT)/$(EX_TARGET)/digits-app.elf
EX_SIM    := $(BUILD)/$(EX_TARGET)/tessel-sim
EX_RTLIB  := $(FW_OUT)/$(EX_TARGET)/libtessel-rt.a
EX_DATA   := $(EX_OBJ)/digits-data
EX_LINK_DEPS := $(FW_LINK_DEPS) linker/sim-pkg.ld
EX_COMMA  := ,

# The generator tool, under the sanitizers like every host program tested.
$(EX_DATA): $(EX_SRC)/digits_data.c $(SHARED_LIB_SAN)
	$(call host_link,$@,$< $(SHARED_LIB_SAN),$(HOST_CFLAGS) $(SAN_FLAGS) $(SHARED_INC))

# One compile writes both files; the .c is the target make tracks.
$(EX_OBJ)/digits_pkg.c: $(BIN)/tessel $(EX_MODEL)/digits_cnn.onnx $(EX_MODEL)/digits.calib.npy
	@mkdir -p $(@D)
	$(call say,COMPILE,$@)
	$(Q)$(BIN)/tessel compile $(EX_MODEL)/digits_cnn.onnx --calib $(EX_MODEL)/digits.calib.npy \
	  --target $(EX_TARGET) --emit-c $@ -o $(EX_OBJ)/digits.tpkg

$(EX_OBJ)/digits_ref.npy: $(BIN)/tessel $(EX_MODEL)/digits_cnn.onnx $(EX_MODEL)/digits.calib.npy \
                          $(EX_MODEL)/digits.test.npy
	@mkdir -p $(@D)
	$(call say,REF,$@)
	$(Q)$(BIN)/tessel ref $(EX_MODEL)/digits_cnn.onnx --calib $(EX_MODEL)/digits.calib.npy \
	  --input $(EX_MODEL)/digits.test.npy -o $@

$(EX_OBJ)/digits_images.h: $(EX_DATA) $(EX_MODEL)/digits.test.npy $(EX_MODEL)/digits.labels.npy \
                           $(EX_OBJ)/digits_ref.npy
	$(call say,GEN,$@)
	$(Q)$(EX_DATA) $(EX_MODEL)/digits.test.npy $(EX_MODEL)/digits.labels.npy $(EX_OBJ)/digits_ref.npy \
	  $(EX_COUNT) -o $@

$(EX_OBJ)/digits_app.o: $(EX_SRC)/digits_app.c $(EX_OBJ)/digits_images.h $(RT_HDRS) \
                        $(BUILD)/gen/$(EX_TARGET)/tessel_target.h
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(call RT_CFLAGS,$(EX_TARGET)) -I$(EX_OBJ) -c $< -o $@
$(EX_OBJ)/digits_pkg.o: $(EX_OBJ)/digits_pkg.c
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(RV_CFLAGS) -c $< -o $@

EX_OBJS := $(EX_OBJ)/digits_app.o $(EX_OBJ)/digits_pkg.o
$(EX_ELF): $(EX_OBJS) $(EX_RTLIB) $(EX_LINK_DEPS)
	@mkdir -p $(@D)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim-pkg.ld,$(EX_OBJS) $(EX_RTLIB))

# For the suite: the same objects with a window area too small for the
# package (the runtime must refuse it: TFW_E_WINDOW).
$(EX_OBJ)/digits-app-small-window.elf: $(EX_OBJS) $(EX_RTLIB) $(EX_LINK_DEPS)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim-pkg.ld,$(EX_OBJS) $(EX_RTLIB) -Wl$(EX_COMMA)--defsym=__tessel_window_size=1024)

# The minimal example of docs/runtime-firmware.md, built and run by the suite.
$(EX_OBJ)/minimal.o: $(EX_SRC)/minimal.c $(RT_HDRS) $(BUILD)/gen/$(EX_TARGET)/tessel_target.h
	@mkdir -p $(@D)
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(call RT_CFLAGS,$(EX_TARGET)) -c $< -o $@
$(EX_OBJ)/minimal-app.elf: $(EX_OBJ)/minimal.o $(EX_OBJ)/digits_pkg.o $(EX_RTLIB) $(EX_LINK_DEPS)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim-pkg.ld,$(EX_OBJ)/minimal.o $(EX_OBJ)/digits_pkg.o $(EX_RTLIB))

ALL += $(EX_ELF) $(EX_OBJ)/minimal-app.elf
.SECONDARY: $(EX_OBJ)/digits_pkg.c $(EX_OBJ)/digits_ref.npy $(EX_OBJ)/digits_images.h $(EX_OBJS) \
            $(EX_OBJ)/minimal.o

TEST_SUITES += fw-app
.PHONY: test-fw-app
test-fw-app: $(EX_ELF) $(EX_OBJ)/digits-app-small-window.elf $(EX_OBJ)/minimal-app.elf $(EX_DATA) $(EX_SIM) \
             $(BIN)/tessel
	@tests/fw-app/run.sh $(EX_SIM) $(EX_ELF) $(EX_OBJ) $(EX_DATA) $(BIN)/tessel

# ---- benchmark: what loading and running the linked package costs ---------
# Prints the example's load figures with the weights CRC checked (the default)
# and skipped (TFW_LOAD_LAZY_WEIGHTS), the cycles per inference, and the
# code size of libtessel-rt.a and of the example.
$(EX_OBJ)/digits_app_lazy.o: $(EX_SRC)/digits_app.c $(EX_OBJ)/digits_images.h $(RT_HDRS) \
                             $(BUILD)/gen/$(EX_TARGET)/tessel_target.h
	$(call say,CC-RV32,$<)
	$(Q)$(RV_CC) $(call RT_CFLAGS,$(EX_TARGET)) -DDIGITS_LOAD_FLAGS=TFW_LOAD_LAZY_WEIGHTS -I$(EX_OBJ) -c $< -o $@
$(EX_OBJ)/digits-app-lazy.elf: $(EX_OBJ)/digits_app_lazy.o $(EX_OBJ)/digits_pkg.o $(EX_RTLIB) $(EX_LINK_DEPS)
	$(call say,LD-RV32,$@)
	$(Q)$(call fw_link,sim-pkg.ld,$(EX_OBJ)/digits_app_lazy.o $(EX_OBJ)/digits_pkg.o $(EX_RTLIB))

BENCHES += fw-app
.PHONY: bench-fw-app
bench-fw-app: $(EX_ELF) $(EX_OBJ)/digits-app-lazy.elf $(EX_SIM)
	@echo "== digits-app on $(EX_SIM): weights CRC checked at load (default)"
	@$(EX_SIM) $(EX_ELF) --max-cycles 50000000 | grep -E '^digits-app: (package|layout|[0-9]+/)'
	@echo "== the same with TFW_LOAD_LAZY_WEIGHTS"
	@$(EX_SIM) $(EX_OBJ)/digits-app-lazy.elf --max-cycles 50000000 | grep -E '^digits-app: (package|layout)'
	@echo "== code size (riscv64-unknown-elf-size)"
	@$(RV_PREFIX)size -t $(EX_RTLIB) | sed 's|(ex .*)||'
	@$(RV_PREFIX)size $(EX_ELF)
