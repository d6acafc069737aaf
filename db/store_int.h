/* store_int.h -- the store's insides as store.c (and tests) see them: the handle
 * (store_handle.h), connections (store_conn.h) and what the writer gives back at close
 * (store_write_int.h). The store's parts include those lower headers themselves, never this one
 * or store.h, so dependencies in db/ run one way. Not for callers outside db/ (tests excepted). */
#ifndef SESSMAX_STORE_INT_H
#define SESSMAX_STORE_INT_H

#include "db/store.h"
#include "db/store_conn.h"
#include "db/store_handle.h"
#include "db/store_write_int.h"

#endif
