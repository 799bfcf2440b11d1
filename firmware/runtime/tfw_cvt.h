/* tfw_cvt.h: the driver of the SoC's float/int8 converter (tfw_cvt.c). */
#ifndef TESSEL_TFW_CVT_H
#define TESSEL_TFW_CVT_H

/* Probes the converter; with one there, the fallback ops convert on it
 * (tfw_set_cvt), else on the core. 1 when the unit is there. */
int tfw_cvt_init(void);

#endif
