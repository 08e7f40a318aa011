/* cs-text-event-specs-private.h: the events the text importer knows, and
 * how their fields are read from text (cs-text-event-specs.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cs-text-events.h"
#include "cs-text-line.h"

G_BEGIN_DECLS

typedef enum {
  K_S32,       /* int, pid_t */
  K_U32,       /* unsigned int, u32 */
  K_S64,       /* long */
  K_U64,       /* unsigned long, u64 */
  K_SYM,       /* unsigned long holding a function's address */
  K_COMM,      /* char [16] */
  K_STR,       /* __data_loc char[] */
  K_TAIL,      /* char buf[]: the rest of the record */
  K_U8,        /* char, u8: one byte, stored as is (atrace's kind 'B') */
} Kind;

typedef struct {
  const char *decl;    /* the C declaration in the format file */
  const char *name;
  Kind kind;
  const char *key;     /* the key in the text when not @name */
} Field;

#define MAX_FIELDS 8

typedef struct {
  gint64 num;
  const char *str;     /* K_COMM, K_STR, K_TAIL, K_SYM: text */
  gsize len;
} Value;

typedef struct _Spec Spec;
/* Fills @values (one per field of @spec) from @payload. */
typedef void (*ParseFunc) (CsTextEvents *self, const Spec *spec, const CsTextLine *line,
                           const char *payload, Value *values);

struct _Spec {
  const char *system;
  const char *name;
  const char *print_fmt;
  ParseFunc parse;
  Field fields[MAX_FIELDS];
};

extern const Spec _cs_text_event_specs[];
extern const guint _cs_text_n_event_specs;
/* The format of an event the importer does not know: its text. */
extern const Spec _cs_text_generic_spec;

gboolean _cs_text_is_atrace_mark (const char *text);

G_END_DECLS
