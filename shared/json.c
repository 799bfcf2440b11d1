/* json: strict recursive-descent JSON reader (see json.h). */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  arena *a;
  const char *s;     /* text */
  size_t len, pos;   /* bytes, cursor */
  int line;          /* current line (1-based) */
  size_t line_start; /* offset of the current line's first byte */
  diag *d;
} parser;

const char *json_kind_name(json_kind k) {
  static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static int col_of(const parser *p, size_t pos) { return (int)(pos - p->line_start + 1); }

/* Reports an error at the cursor; returns NULL for `return fail(...)`. */
static json_value *fail_at(parser *p, size_t pos, const char *what) {
  if (pos >= p->len)
    diag_set(p->d, "%d:%d: %s (the text ends here)", p->line, col_of(p, p->len), what);
  else
    diag_set(p->d, "%d:%d: %s", p->line, col_of(p, pos), what);
  return NULL;
}
static json_value *fail(parser *p, const char *what) { return fail_at(p, p->pos, what); }

static void skip_ws(parser *p) {
  while (p->pos < p->len) {
    char c = p->s[p->pos];
    if (c == '\n') {
      p->line++;
      p->line_start = p->pos + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return;
    }
    p->pos++;
  }
}

static json_value *new_value(parser *p, json_kind k) {
  json_value *v = arena_alloc(p->a, sizeof *v);
  if (!v) {
    diag_oom(p->d);
    return NULL;
  }
  v->kind = k;
  v->line = p->line;
  v->col = col_of(p, p->pos);
  return v;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static json_value *parse_number(parser *p) {
  json_value *v = new_value(p, JSON_NUMBER);
  if (!v) return NULL;
  size_t start = p->pos;
  int neg = 0, plain = 1;
  if (p->s[p->pos] == '-') {
    neg = 1;
    p->pos++;
  }
  if (p->pos >= p->len || !is_digit(p->s[p->pos])) return fail(p, "expected a digit in the number");
  if (p->s[p->pos] == '0') {
    p->pos++;
    if (p->pos < p->len && is_digit(p->s[p->pos])) return fail(p, "leading zeros are not allowed in numbers");
  } else {
    while (p->pos < p->len && is_digit(p->s[p->pos])) p->pos++;
  }
  if (p->pos < p->len && p->s[p->pos] == '.') {
    plain = 0;
    p->pos++;
    if (p->pos >= p->len || !is_digit(p->s[p->pos])) return fail(p, "expected a digit after the decimal point");
    while (p->pos < p->len && is_digit(p->s[p->pos])) p->pos++;
  }
  if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
    plain = 0;
    p->pos++;
    if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) p->pos++;
    if (p->pos >= p->len || !is_digit(p->s[p->pos])) return fail(p, "expected a digit in the exponent");
    while (p->pos < p->len && is_digit(p->s[p->pos])) p->pos++;
  }
  size_t n = p->pos - start;
  /* strtod needs a terminated copy; the text itself need not be terminated */
  char small[64], *buf = n < sizeof small ? small : arena_alloc(p->a, n + 1);
  if (!buf) {
    diag_oom(p->d);
    return NULL;
  }
  memcpy(buf, p->s + start, n);
  buf[n] = 0;
  v->num = strtod(buf, NULL);
  if (plain && !neg) { /* exact integer value when it fits 64 bits */
    uint64_t u = 0;
    int fits = 1;
    for (size_t i = 0; i < n && fits; i++) {
      unsigned dgt = (unsigned)(buf[i] - '0');
      if (u > (UINT64_MAX - dgt) / 10) fits = 0;
      else u = u * 10 + dgt;
    }
    v->is_uint = fits;
    v->u = fits ? u : 0;
  }
  return v;
}

static int hex4(parser *p, unsigned *out) {
  if (p->len - p->pos < 4) return -1;
  unsigned x = 0;
  for (int i = 0; i < 4; i++) {
    char c = p->s[p->pos + (size_t)i];
    x <<= 4;
    if (is_digit(c)) x |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') x |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') x |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  p->pos += 4;
  *out = x;
  return 0;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t k;
  unsigned min;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) k = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) k = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) k = 4, min = 0x10000;
  else return 0;
  if (n < k) return 0;
  unsigned cp = c & (0xFF >> (k + 1));
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return k;
}

static size_t put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) return o[0] = (char)cp, 1;
  if (cp < 0x800) return o[0] = (char)(0xC0 | (cp >> 6)), o[1] = (char)(0x80 | (cp & 0x3F)), 2;
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Parses the string at the cursor (on its opening quote). The decoded text
 * is never longer than the source, so one buffer of the source's size does. */
static json_value *parse_string(parser *p) {
  json_value *v = new_value(p, JSON_STRING);
  if (!v) return NULL;
  size_t start = ++p->pos, end = start;
  while (end < p->len && p->s[end] != '"') end += p->s[end] == '\\' ? 2 : 1;
  if (end >= p->len) return fail_at(p, start - 1, "unterminated string");
  char *out = arena_alloc(p->a, end - start + 1);
  if (!out) {
    diag_oom(p->d);
    return NULL;
  }
  size_t n = 0;
  while (p->s[p->pos] != '"') {
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c < 0x20) return fail(p, "control character in a string (escape it as \\u00XX)");
    if (c != '\\') {
      size_t k = utf8_len((const unsigned char *)p->s + p->pos, end - p->pos);
      if (!k) return fail(p, "invalid UTF-8 in a string");
      memcpy(out + n, p->s + p->pos, k);
      n += k;
      p->pos += k;
      continue;
    }
    p->pos++;
    char e = p->s[p->pos++];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (e && simple) {
      static const char map[] = "\"\\/\b\f\n\r\t";
      out[n++] = map[simple - "\"\\/bfnrt"];
      continue;
    }
    if (e != 'u') return fail_at(p, p->pos - 2, "invalid escape in a string");
    unsigned cp, lo;
    if (hex4(p, &cp)) return fail_at(p, p->pos - 2, "\\u needs four hex digits");
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail_at(p, p->pos - 6, "lone low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
        return fail_at(p, p->pos - 6, "high surrogate not followed by a low surrogate");
      p->pos += 2;
      if (hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF)
        return fail_at(p, p->pos - 2, "high surrogate not followed by a low surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    n += put_utf8(out + n, cp);
  }
  p->pos++; /* closing quote */
  out[n] = 0;
  v->str = out;
  v->len = n;
  return v;
}

static json_value *parse_value(parser *p, int depth);

static int cmp_key(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* Array or object: members are chained while parsing, then put into arrays. */
static json_value *parse_container(parser *p, int depth) {
  int obj = p->s[p->pos] == '{';
  char close = obj ? '}' : ']';
  json_value *v = new_value(p, obj ? JSON_OBJECT : JSON_ARRAY);
  if (!v) return NULL;
  if (depth >= JSON_MAX_DEPTH) return fail(p, "nesting deeper than 64 levels");
  p->pos++;
  json_value *head = NULL, **tail = &head;
  size_t n = 0;
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == close) {
    p->pos++;
    return v;
  }
  for (;;) {
    skip_ws(p);
    json_value *key = NULL;
    if (obj) {
      if (p->pos >= p->len || p->s[p->pos] != '"') return fail(p, "expected a string key in the object");
      if (!(key = parse_string(p))) return NULL;
      if (strlen(key->str) != key->len) return fail_at(p, p->pos - 1, "object key contains \\u0000");
      skip_ws(p);
      if (p->pos >= p->len || p->s[p->pos] != ':') return fail(p, "expected ':' after the object key");
      p->pos++;
      skip_ws(p);
    }
    json_value *item = parse_value(p, depth + 1);
    if (!item) return NULL;
    if (key) { /* the key travels in the string slot of a linked key value */
      key->next = item;
      item = key;
    }
    *tail = item;
    tail = obj ? &item->next->next : &item->next;
    n++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      skip_ws(p);
      if (p->pos < p->len && p->s[p->pos] == close) return fail(p, "trailing comma before the closing bracket");
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == close) {
      p->pos++;
      break;
    }
    return fail(p, obj ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element");
  }
  v->len = n;
  v->items = arena_alloc(p->a, n * sizeof *v->items);
  v->keys = obj ? arena_alloc(p->a, n * sizeof *v->keys) : NULL;
  if (!v->items || (obj && !v->keys)) {
    diag_oom(p->d);
    return NULL;
  }
  json_value *it = head;
  for (size_t i = 0; i < n; i++) {
    if (obj) {
      v->keys[i] = it->str;
      it = it->next;
    }
    v->items[i] = it;
    it = it->next;
  }
  if (obj && n > 1) { /* duplicate keys: sort a copy of the keys */
    const char **sorted = arena_alloc(p->a, n * sizeof *sorted);
    if (!sorted) {
      diag_oom(p->d);
      return NULL;
    }
    memcpy(sorted, v->keys, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_key);
    for (size_t i = 1; i < n; i++)
      if (!strcmp(sorted[i - 1], sorted[i])) {
        diag_set(p->d, "%d:%d: duplicate key \"%.60s\" in the object", v->line, v->col, sorted[i]);
        return NULL;
      }
  }
  return v;
}

static json_value *parse_literal(parser *p, const char *word, json_kind k, int b) {
  size_t n = strlen(word);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) return fail(p, "expected a JSON value");
  json_value *v = new_value(p, k);
  if (!v) return NULL;
  v->boolean = b;
  p->pos += n;
  return v;
}

static json_value *parse_value(parser *p, int depth) {
  skip_ws(p);
  if (p->pos >= p->len) return fail(p, "expected a JSON value");
  char c = p->s[p->pos];
  if (c == '{' || c == '[') return parse_container(p, depth);
  if (c == '"') return parse_string(p);
  if (c == '-' || is_digit(c)) return parse_number(p);
  if (c == 't') return parse_literal(p, "true", JSON_BOOL, 1);
  if (c == 'f') return parse_literal(p, "false", JSON_BOOL, 0);
  if (c == 'n') return parse_literal(p, "null", JSON_NULL, 0);
  return fail(p, "expected a JSON value");
}

json_value *json_parse(arena *a, const char *text, size_t len, diag *d) {
  parser p = {a, text, len, 0, 1, 0, d};
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) return fail(&p, "byte order mark at the start (JSON text must not have one)");
  json_value *v = parse_value(&p, 0);
  if (!v) return NULL;
  skip_ws(&p);
  if (p.pos < p.len) return fail(&p, "unexpected text after the JSON value");
  return v;
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < obj->len; i++)
    if (!strcmp(obj->keys[i], key)) return obj->items[i];
  return NULL;
}
