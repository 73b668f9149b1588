// Native prefetch of a skill tree (N-API): starts the walk of tree-walk.c on a thread, hands its result over as one Buffer.
//
// Why native: a cold 2,000-skill catalog spends about a third of its wall time listing 4,111 folders and reading
// 2,000 files (docs/performance.md). Here the walk uses openat/getdents64 relative to the parent's descriptor (no
// path resolution per call, no fstat per listing) and runs on a second thread, started before the JavaScript scanner
// loads. It only gathers bytes: every decision (what is a skill, symlinks, limits, diagnostics) stays in
// runtime/skills/, which falls back to its own syscalls for anything this walk did not record.
//
// Output (one Buffer, little-endian u32 fields):
//   header: magic, version, dirCount, stringBytes, entryCount, contentBytes
//   strings: for each folder, its path relative to the root ("" for the root), then its entry names; each ends in \0
//   types:   one byte per entry: 1 file, 2 folder, 3 symlink, 4 FIFO, 5 socket, 6 char device, 7 block device
//   dirs:    per folder: entry count, SKILL.md bytes offset, SKILL.md length (0xffffffff: not read, read it yourself)
//   content: the SKILL.md bytes
// A folder is recorded only when all of it could be listed, every entry has a known type and every name is valid
// UTF-8 (the scanner works with decoded names; a name that does not round-trip must go through its own fallback).
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tree-walk.h"

#define MAGIC 0x53475446u /* "FTGS" */
#define VERSION 1u

/*
 * One prefetch at a time per process: the launcher starts it, the scanner of the same root takes it. Guarded by
 * `state_lock`, since a host may scan from worker threads (each loads this module; they share its state).
 */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  pthread_t thread;
  int running;
  char *root;
  int max_depth;
  struct walk walks[WALKERS];
} pending;

static void *run_walk(void *unused) {
  (void)unused;
  int fd = open(pending.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) pending.walks[0].failed = 1;
  else walk_tree(fd, pending.max_depth, pending.walks);
  return NULL;
}

static void release(void) {
  free(pending.root);
  for (int i = 0; i < WALKERS; i++) free_walk(&pending.walks[i]);
  memset(&pending, 0, sizeof pending);
}

static char *string_arg(napi_env env, napi_value value) {
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (text && napi_get_value_string_utf8(env, value, text, length + 1, &length) != napi_ok) {
    free(text);
    return NULL;
  }
  return text;
}

/* start(root, maxDepth): begins walking `root` on a thread; returns false when one is already under way. */
static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  int32_t max_depth = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  pthread_mutex_lock(&state_lock);
  int ok = !pending.running && argc == 2 && napi_get_value_int32(env, argv[1], &max_depth) == napi_ok;
  if (ok) {
    release();
    pending.root = string_arg(env, argv[0]);
    pending.max_depth = max_depth < 0 ? 0 : max_depth > MAX_DEPTH_LIMIT ? MAX_DEPTH_LIMIT : max_depth;
    ok = pending.root && strlen(pending.root) > 0 && pthread_create(&pending.thread, NULL, run_walk, NULL) == 0;
    pending.running = ok;
    if (!ok) release();
  }
  pthread_mutex_unlock(&state_lock);
  napi_get_boolean(env, ok, &result);
  return result;
}

/* take(root, maxDepth): the prefetch of exactly that root and depth as one Buffer, or undefined (none, or it failed). */
static napi_value take(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  int32_t max_depth = -1;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_undefined(env, &result);
  pthread_mutex_lock(&state_lock);
  if (!pending.running) {
    pthread_mutex_unlock(&state_lock);
    return result;
  }
  pthread_join(pending.thread, NULL);
  pending.running = 0;
  char *root = argc == 2 ? string_arg(env, argv[0]) : NULL;
  if (argc == 2) napi_get_value_int32(env, argv[1], &max_depth);
  int failed = 0;
  uint32_t dir_count = 0, entry_count = 0;
  size_t strings = 0, types = 0, dirs = 0, content = 0;
  for (int i = 0; i < WALKERS; i++) {
    struct walk *w = &pending.walks[i];
    failed |= w->failed;
    dir_count += w->dir_count;
    entry_count += w->entry_count;
    strings += w->strings.used;
    types += w->types.used;
    dirs += w->dirs.used;
    content += w->content.used;
  }
  if (root && !strcmp(root, pending.root) && max_depth == pending.max_depth && !failed) {
    uint32_t header[6] = {MAGIC, VERSION, dir_count, (uint32_t)strings, entry_count, (uint32_t)content};
    void *data;
    if (napi_create_buffer(env, sizeof header + strings + types + dirs + content, &data, &result) == napi_ok) {
      uint8_t *at = data;
      memcpy(at, header, sizeof header);
      at += sizeof header;
      // Each walker's regions in turn; a folder's SKILL.md offset moves by the content of the walkers before it.
      for (int i = 0; i < WALKERS; i++)
        if (pending.walks[i].strings.used)
          memcpy(at, pending.walks[i].strings.data, pending.walks[i].strings.used), at += pending.walks[i].strings.used;
      for (int i = 0; i < WALKERS; i++)
        if (pending.walks[i].types.used)
          memcpy(at, pending.walks[i].types.data, pending.walks[i].types.used), at += pending.walks[i].types.used;
      uint32_t content_base = 0;
      for (int i = 0; i < WALKERS; i++) {
        struct walk *w = &pending.walks[i];
        for (size_t record = 0; record < w->dirs.used; record += 12) {
          uint32_t fields[3];
          memcpy(fields, w->dirs.data + record, 12);
          if (fields[2] != NOT_READ) fields[1] += content_base;
          memcpy(at, fields, 12);
          at += 12;
        }
        content_base += (uint32_t)w->content.used;
      }
      for (int i = 0; i < WALKERS; i++)
        if (pending.walks[i].content.used)
          memcpy(at, pending.walks[i].content.data, pending.walks[i].content.used), at += pending.walks[i].content.used;
    } else {
      napi_get_undefined(env, &result);
    }
  }
  free(root);
  release();
  pthread_mutex_unlock(&state_lock);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start, NULL, &fn);
  napi_set_named_property(env, exports, "start", fn);
  napi_create_function(env, "take", NAPI_AUTO_LENGTH, take, NULL, &fn);
  napi_set_named_property(env, exports, "take", fn);
  return exports;
}
