/* fw_exit.c: exit(7) runs atexit handlers, then ends the simulation with
 * status 7 through simulation control. */
#include <stdio.h>
#include <stdlib.h>

static void goodbye(void) { puts("atexit handler ran"); }

int main(void) {
  atexit(goodbye);
  puts("exiting with 7");
  exit(7);
}
