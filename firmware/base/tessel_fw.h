/* tessel_fw.h: the firmware base in one include: device addresses, CSR
 * access, traps, UART, timer and simulation control. Link build/firmware/crt0.o
 * first and build/firmware/libtessel-fw.a (see docs/firmware.md). */
#ifndef TESSEL_FW_H
#define TESSEL_FW_H

#include "csr.h"
#include "mmio.h"
#include "simctl.h"
#include "timer.h"
#include "trap.h"
#include "uart.h"

#endif
