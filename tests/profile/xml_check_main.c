/* xml-check FILE: exits 0 and prints "well-formed" if FILE is well-formed
 * XML (xml_check.h), else prints the problem and exits 1. */
#include <stdio.h>
#include <stdlib.h>

#include "xml_check.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: xml-check FILE\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char buf[1 << 24];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char msg[200];
  if (xml_check(buf, n, msg, sizeof msg)) {
    printf("%s: %s\n", argv[1], msg);
    return 1;
  }
  printf("%s: well-formed\n", argv[1]);
  return 0;
}
