/* xml_check: a small XML 1.0 well-formedness check for the profiler's SVG
 * tests (no libxml2 on a fresh Debian): one root element, tags nested and
 * closed in order, attributes quoted and not repeated, entity and character
 * references valid, no '<' or '&' raw in text, comments and the XML
 * declaration allowed. Not a validator: no DTDs, no namespaces. */
#ifndef XML_CHECK_H
#define XML_CHECK_H

#include <stddef.h>

/* 0 if text[0..len) is well-formed; else -1 with "line N: what" in msg. */
int xml_check(const char *text, size_t len, char *msg, size_t msglen);

#endif
