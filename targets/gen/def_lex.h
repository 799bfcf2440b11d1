/* def_lex: what the two description readers share (isa_parse.c reads
 * targets/isa.def, memmap_parse.c targets/memmap.def): the position that
 * every message names, and the line splitter. */
#ifndef DEF_LEX_H
#define DEF_LEX_H

/* Where a reader is: file and line for messages, the caller's error buffer. */
typedef struct {
  const char *path; /* the description file */
  int line;         /* 1-based line being read */
  char *err;        /* message buffer the reader fills on failure */
  int errlen;       /* its size */
} DefCtx;

/* Writes "PATH:LINE: message" to c->err; returns -1. */
int def_fail(DefCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Splits line (modified in place) into blank-separated words before the
 * first '"', keeping at most max of them in w; the quoted rest (without its
 * quotes, at most doclen - 1 bytes) goes to doc. Returns how many words the
 * line has, which may be more than max, or -1 (def_fail) for a longer doc. */
int def_split(DefCtx *c, char *line, char **w, int max, char *doc, int doclen);

#endif
