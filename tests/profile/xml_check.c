/* xml_check: see xml_check.h. A single pass with a stack of open tag names. */
#include "xml_check.h"

#include <stdio.h>
#include <string.h>

enum { MAX_DEPTH = 256, MAX_NAME = 64, MAX_ATTRS = 64 };

typedef struct {
  const char *s;
  size_t len, pos;
  char *msg;
  size_t msglen;
} xr;

static int fail(xr *x, const char *what) {
  int line = 1;
  for (size_t i = 0; i < x->pos && i < x->len; i++) line += x->s[i] == '\n';
  snprintf(x->msg, x->msglen, "line %d: %s", line, what);
  return -1;
}

static int name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
static int name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
static int space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void skip_space(xr *x) {
  while (x->pos < x->len && space(x->s[x->pos])) x->pos++;
}

/* Reads a name into out (truncated to MAX_NAME-1). */
static int read_name(xr *x, char *out) {
  if (x->pos >= x->len || !name_start(x->s[x->pos])) return fail(x, "expected a name");
  size_t n = 0;
  while (x->pos < x->len && name_char(x->s[x->pos])) {
    if (n < MAX_NAME - 1) out[n++] = x->s[x->pos];
    x->pos++;
  }
  out[n] = 0;
  return 0;
}

/* An entity or character reference at '&'. */
static int reference(xr *x) {
  static const char *const named[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
  x->pos++;
  for (int i = 0; i < 5; i++) {
    size_t n = strlen(named[i]);
    if (x->len - x->pos >= n && !memcmp(x->s + x->pos, named[i], n)) {
      x->pos += n;
      return 0;
    }
  }
  if (x->pos < x->len && x->s[x->pos] == '#') {
    int hex = x->pos + 1 < x->len && x->s[x->pos + 1] == 'x', digits = 0;
    x->pos += hex ? 2 : 1;
    while (x->pos < x->len && (hex ? strchr("0123456789abcdefABCDEF", x->s[x->pos]) != NULL
                                   : x->s[x->pos] >= '0' && x->s[x->pos] <= '9') && x->s[x->pos]) {
      x->pos++;
      digits++;
    }
    if (digits && x->pos < x->len && x->s[x->pos] == ';') {
      x->pos++;
      return 0;
    }
  }
  return fail(x, "bad entity or character reference");
}

static int attributes(xr *x, int *self_closing) {
  char names[MAX_ATTRS][MAX_NAME];
  int n = 0;
  for (;;) {
    size_t before = x->pos;
    skip_space(x);
    if (x->pos >= x->len) return fail(x, "unterminated tag");
    if (x->s[x->pos] == '>') {
      x->pos++;
      *self_closing = 0;
      return 0;
    }
    if (x->s[x->pos] == '/') {
      if (x->pos + 1 >= x->len || x->s[x->pos + 1] != '>') return fail(x, "'/' not followed by '>'");
      x->pos += 2;
      *self_closing = 1;
      return 0;
    }
    if (x->pos == before) return fail(x, "attributes must be separated by white space");
    if (n == MAX_ATTRS) return fail(x, "too many attributes");
    if (read_name(x, names[n])) return -1;
    for (int i = 0; i < n; i++)
      if (!strcmp(names[i], names[n])) return fail(x, "repeated attribute");
    n++;
    skip_space(x);
    if (x->pos >= x->len || x->s[x->pos] != '=') return fail(x, "attribute without '='");
    x->pos++;
    skip_space(x);
    if (x->pos >= x->len || (x->s[x->pos] != '"' && x->s[x->pos] != '\'')) return fail(x, "attribute value not quoted");
    char q = x->s[x->pos++];
    while (x->pos < x->len && x->s[x->pos] != q) {
      if (x->s[x->pos] == '<') return fail(x, "'<' in an attribute value");
      if (x->s[x->pos] == '&') {
        if (reference(x)) return -1;
      } else {
        x->pos++;
      }
    }
    if (x->pos >= x->len) return fail(x, "unterminated attribute value");
    x->pos++;
  }
}

int xml_check(const char *text, size_t len, char *msg, size_t msglen) {
  xr x = {text, len, 0, msg, msglen};
  static char stack[MAX_DEPTH][MAX_NAME];
  int depth = 0, roots = 0;
  if (len >= 5 && !memcmp(text, "<?xml", 5)) {
    const char *end = strstr(text, "?>");
    if (!end) return fail(&x, "unterminated XML declaration");
    x.pos = (size_t)(end - text) + 2;
  }
  while (x.pos < x.len) {
    char c = x.s[x.pos];
    if (c == '<') {
      if (x.len - x.pos >= 4 && !memcmp(x.s + x.pos, "<!--", 4)) {
        const char *end = strstr(x.s + x.pos + 4, "-->");
        if (!end) return fail(&x, "unterminated comment");
        x.pos = (size_t)(end - x.s) + 3;
        continue;
      }
      if (x.pos + 1 < x.len && x.s[x.pos + 1] == '/') {
        char name[MAX_NAME];
        x.pos += 2;
        if (read_name(&x, name)) return -1;
        skip_space(&x);
        if (x.pos >= x.len || x.s[x.pos] != '>') return fail(&x, "unterminated end tag");
        x.pos++;
        if (!depth || strcmp(stack[depth - 1], name)) return fail(&x, "end tag does not match the open element");
        depth--;
        continue;
      }
      x.pos++;
      if (depth == 0 && roots++) return fail(&x, "more than one root element");
      if (depth == MAX_DEPTH) return fail(&x, "elements nested too deep");
      if (read_name(&x, stack[depth])) return -1;
      int self_closing;
      if (attributes(&x, &self_closing)) return -1;
      if (!self_closing) depth++;
      continue;
    }
    if (c == '&') {
      if (reference(&x)) return -1;
      continue;
    }
    if (depth == 0 && !space(c)) return fail(&x, "text outside the root element");
    if ((unsigned char)c < 0x20 && !space(c)) return fail(&x, "control character");
    x.pos++;
  }
  if (depth) return fail(&x, "element not closed at the end");
  if (!roots) return fail(&x, "no root element");
  return 0;
}
