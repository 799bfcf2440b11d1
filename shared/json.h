/* json: a small strict JSON reader (RFC 8259) for the profiler.
 *
 * Parses a whole document into a tree allocated in an arena. Strict: no
 * comments, no trailing commas, no leading zeros, no raw control characters
 * in strings, valid escapes and UTF-8, no duplicate keys in one object, one
 * value and nothing but white space after it. Nesting is limited (JSON_MAX_DEPTH)
 * so hostile input cannot exhaust the stack. Errors name the line and column
 * ("3:17: expected ',' or '}' after an object member"). */
#ifndef TESSEL_PROFILE_JSON_H
#define TESSEL_PROFILE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

enum { JSON_MAX_DEPTH = 64 };

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json_value json_value;
struct json_value {
  json_kind kind;
  int line, col;        /* where the value starts (1-based) */
  int boolean;          /* JSON_BOOL: 0 or 1 */
  int is_uint;          /* JSON_NUMBER: a non-negative integer literal that fits uint64 */
  uint64_t u;           /* JSON_NUMBER with is_uint: its exact value */
  double num;           /* JSON_NUMBER: its value as a double (may be inf for huge literals) */
  const char *str;      /* JSON_STRING: the decoded UTF-8 text, NUL-terminated */
  size_t len;           /* JSON_STRING: bytes in str (it may hold \u0000); containers: entries */
  json_value **items;   /* JSON_ARRAY: elements; JSON_OBJECT: member values */
  const char **keys;    /* JSON_OBJECT: member keys, in document order */
  json_value *next;     /* internal: sibling while parsing */
};

/* Parses text[0..len) (need not be NUL-terminated). Returns the root value,
 * allocated in a, or NULL with "LINE:COL: what is wrong" in d. */
json_value *json_parse(arena *a, const char *text, size_t len, diag *d);

/* The member `key` of an object, or NULL (also when obj is not an object). */
const json_value *json_get(const json_value *obj, const char *key);

/* "object", "array", ... for messages. */
const char *json_kind_name(json_kind k);

#endif
