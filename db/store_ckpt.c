/* store_ckpt.c -- WAL checkpoints off the writer's thread (see store_ckpt.h). */
#include "db/store_ckpt.h"

#include "db/store_conn.h"

#include <pthread.h>
#include <stdlib.h>

#define CKPT_PAGES 1000          /* SQLite's automatic checkpoint threshold, kept */

struct store_ckpt {
    sqlite3 *db;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int commits, quit;
};

/* The writer committed and the WAL holds `pages`: past the threshold, wake the thread (the
 * writer's thread only takes the mutex for this). */
static int committed(void *arg, sqlite3 *db, const char *name, int pages)
{
    struct store_ckpt *c = arg;
    (void)db;
    (void)name;
    if (pages >= CKPT_PAGES) {
        pthread_mutex_lock(&c->mu);
        c->commits++;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
    }
    return SQLITE_OK;
}

static void *run(void *arg)
{
    struct store_ckpt *c = arg;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->commits && !c->quit)
            pthread_cond_wait(&c->cv, &c->mu);
        if (c->quit)
            break;
        c->commits = 0;
        pthread_mutex_unlock(&c->mu);
        sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

struct store_ckpt *store_ckpt_start(const char *path, sqlite3 *writer)
{
    struct store_ckpt *c = calloc(1, sizeof *c);
    char err[256];
    if (!c || store_connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, &c->db, err, sizeof err) != 0) {
        if (c)
            sqlite3_close(c->db);
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    if (pthread_create(&c->thread, NULL, run, c) != 0) {
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
        sqlite3_close(c->db);
        free(c);
        return NULL;
    }
    sqlite3_wal_hook(writer, committed, c);   /* replaces the automatic checkpoint's hook */
    return c;
}

void store_ckpt_stop(struct store_ckpt *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->quit = 1;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    sqlite3_close(c->db);
    free(c);
}
