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

# Verilator.
VERILATOR    ?= verilator
VFLAGS       := -O3 --x-assign fast --x-initial fast --noassert -Wno-fatal
