/* crc32: CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320, init and final
 * xor 0xFFFFFFFF: the zlib/PNG CRC, crc32("123456789") = 0xCBF43926).
 * Freestanding (no libc): the firmware's package loader compiles this source. */
#ifndef TESSEL_CRC32_H
#define TESSEL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC of n bytes at p. */
uint32_t crc32(const void *p, size_t n);
/* Incremental form: crc = crc32_update(0, a, na); crc = crc32_update(crc, b, nb)
 * equals crc32 of a then b. */
uint32_t crc32_update(uint32_t crc, const void *p, size_t n);

#endif
