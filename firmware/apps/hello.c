/* hello.c: the picolibc printf check: a greeting, signed and unsigned
 * integers, a string, a character and hex, on the UART. The printf suite
 * compares the output with tests/firmware/expected/hello.out. */
#include <stdio.h>
#include <limits.h>
#include <string.h>

int main(void) {
  const char *name = "Tessel";
  printf("Hello from %s on RV32IM!\n", name);
  printf("ints: %d %d %i %u\n", 42, -17, 0, 4000000000u);
  printf("extremes: %d %d\n", INT_MAX, INT_MIN);
  printf("hex: %x %X 0x%08x %#x\n", 0xbeefu, 0xcafeu, 0x1234u, 255u);
  printf("string: [%s] [%10s] [%-6s] len %u\n", name, name, "ab", (unsigned)strlen(name));
  printf("char: %c%c%c\n", 'n', 'p', 'u');
  printf("padded: [%5d] [%-5d] [%05d]\n", 42, 42, -42);
  puts("bye");
  return 0;
}
