// Native prefetch of a skill tree: every folder's listing and each regular SKILL.md's bytes, read on a thread of its own.
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAGIC 0x53475446u /* "FTGS" */
#define VERSION 1u
#define NOT_READ 0xffffffffu
#define SKILL_FILE_CHUNK 65536 /* tree-read.ts's CHUNK_BYTES: a larger SKILL.md is left to the scanner */
#define OUTPUT_LIMIT (64u << 20) /* stop recording past this many bytes; the scanner lists the rest itself */
#define MAX_DEPTH_LIMIT 64

#define WALKERS 2
#define QUEUE_LIMIT 256 /* folders waiting with an open descriptor; past it a walker descends itself */

struct region { uint8_t *data; size_t used, size; };
struct linux_dirent64 { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };

/* One walker's output: the regions below, with content offsets relative to its own content region. */
struct walk {
  struct region strings, types, dirs, content;
  uint32_t dir_count, entry_count;
  int failed, full;
};

struct queued { int fd, depth; char *path; };

/* The walk shared by the walkers: a stack of folders to list, and when everyone is done. */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  struct queued items[QUEUE_LIMIT];
  int length, busy, max_depth;
} work = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {{0, 0, 0}}, 0, 0, 0};

static int grow(struct region *r, size_t more) {
  if (r->used + more <= r->size) return 1;
  size_t size = r->size ? r->size : 65536;
  while (size < r->used + more) size *= 2;
  uint8_t *data = realloc(r->data, size);
  if (!data) return 0;
  r->data = data;
  r->size = size;
  return 1;
}

static size_t used(const struct walk *w) { return w->strings.used + w->types.used + w->dirs.used + w->content.used; }

static int put(struct walk *w, struct region *r, const void *bytes, size_t n) {
  if (used(w) + n > OUTPUT_LIMIT / WALKERS) {
    w->full = 1;
    return 0;
  }
  if (!grow(r, n)) {
    w->failed = 1;
    return 0;
  }
  memcpy(r->data + r->used, bytes, n);
  r->used += n;
  return 1;
}

static int put_u32(struct walk *w, struct region *r, uint32_t value) { return put(w, r, &value, 4); }

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int valid_utf8(const unsigned char *s) {
  while (*s) {
    unsigned c = *s;
    if (c < 0x80) { s++; continue; }
    int n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : -1;
    if (n < 0 || c > 0xf4) return 0;
    unsigned cp = c & (0x3f >> n);
    for (int i = 1; i <= n; i++) {
      if ((s[i] & 0xc0) != 0x80) return 0;
      cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
      return 0;
    s += n + 1;
  }
  return 1;
}

static uint8_t type_code(unsigned char d_type) {
  switch (d_type) {
    case DT_REG: return 1;
    case DT_DIR: return 2;
    case DT_LNK: return 3;
    case DT_FIFO: return 4;
    case DT_SOCK: return 5;
    case DT_CHR: return 6;
    case DT_BLK: return 7;
    default: return 0;
  }
}

/* The whole listing of `fd` into a malloc'd block, or NULL (unreadable: the scanner lists it and reports why). */
static uint8_t *list_all(int fd, size_t *length) {
  size_t size = 32768, filled = 0;
  uint8_t *block = malloc(size);
  if (!block) return NULL;
  for (;;) {
    if (size - filled < 32768) {
      uint8_t *bigger = realloc(block, size * 2);
      if (!bigger) { free(block); return NULL; }
      block = bigger;
      size *= 2;
    }
    long n = syscall(SYS_getdents64, fd, block + filled, size - filled);
    if (n < 0) { free(block); return NULL; }
    if (n == 0) break;
    filled += (size_t)n;
  }
  *length = filled;
  return block;
}

static int is_dot(const char *name) { return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])); }

/* SKILL.md's bytes appended to content, or NOT_READ when it is not a small regular file opened without following links. */
static uint32_t read_skill_file(struct walk *w, int dir_fd, uint32_t *offset) {
  int fd = openat(dir_fd, "SKILL.md", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return NOT_READ;
  uint32_t length = NOT_READ;
  struct stat stat;
  // Swapped for a FIFO or device since the listing: left to the scanner, which reports it.
  if (fstat(fd, &stat) == 0 && S_ISREG(stat.st_mode) && !w->full && grow(&w->content, SKILL_FILE_CHUNK)) {
    size_t filled = 0;
    for (;;) {
      ssize_t n = read(fd, w->content.data + w->content.used + filled, SKILL_FILE_CHUNK - filled);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) { filled = SKILL_FILE_CHUNK; break; }
      if (n == 0) break;
      filled += (size_t)n;
      if (filled == SKILL_FILE_CHUNK) break;
    }
    if (filled < SKILL_FILE_CHUNK && used(w) + filled <= OUTPUT_LIMIT / WALKERS) {
      *offset = (uint32_t)w->content.used;
      w->content.used += filled;
      length = (uint32_t)filled;
    }
  }
  close(fd);
  return length;
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(struct linux_dirent64 *const *)a)->d_name, (*(struct linux_dirent64 *const *)b)->d_name);
}

/* The folder's entries (no "." or ".."), sorted by strcmp as libuv's scandir gives them to readdirSync. */
static struct linux_dirent64 **sorted_entries(uint8_t *block, size_t length, uint32_t *count) {
  uint32_t n = 0;
  for (size_t at = 0; at < length; at += ((struct linux_dirent64 *)(block + at))->d_reclen) n++;
  struct linux_dirent64 **entries = malloc((n ? n : 1) * sizeof *entries);
  if (!entries) return NULL;
  n = 0;
  for (size_t at = 0; at < length;) {
    struct linux_dirent64 *entry = (struct linux_dirent64 *)(block + at);
    at += entry->d_reclen;
    if (!is_dot(entry->d_name)) entries[n++] = entry;
  }
  qsort(entries, n, sizeof *entries, by_name);
  *count = n;
  return entries;
}

static void record_dir(struct walk *w, int fd, const char *path, struct linux_dirent64 **entries, uint32_t count) {
  int has_skill_file = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (!type_code(entries[i]->d_type) || !valid_utf8((const unsigned char *)entries[i]->d_name)) return;
    if (entries[i]->d_type == DT_REG && !strcmp(entries[i]->d_name, "SKILL.md")) has_skill_file = 1;
  }
  size_t mark_strings = w->strings.used, mark_types = w->types.used;
  int ok = put(w, &w->strings, path, strlen(path) + 1);
  for (uint32_t i = 0; ok && i < count; i++) {
    uint8_t type = type_code(entries[i]->d_type);
    ok = put(w, &w->strings, entries[i]->d_name, strlen(entries[i]->d_name) + 1) && put(w, &w->types, &type, 1);
  }
  uint32_t offset = 0, skill_length = NOT_READ;
  if (ok && has_skill_file) skill_length = read_skill_file(w, fd, &offset);
  if (ok) ok = put_u32(w, &w->dirs, count) && put_u32(w, &w->dirs, offset) && put_u32(w, &w->dirs, skill_length);
  if (ok) {
    w->dir_count++;
    w->entry_count += count;
  } else {
    w->strings.used = mark_strings;
    w->types.used = mark_types;
  }
}

/* Lists and records the folder `fd` (closed here); its sub-folders go on the stack, or are walked here when it is full. */
static void walk_dir(struct walk *w, int fd, int depth, const char *path) {
  size_t length;
  uint32_t count;
  uint8_t *block = list_all(fd, &length);
  struct linux_dirent64 **entries = block ? sorted_entries(block, length, &count) : NULL;
  if (!entries) {
    free(block);
    close(fd);
    return;
  }
  if (!w->full) record_dir(w, fd, path, entries, count);
  size_t path_length = strlen(path);
  for (uint32_t i = 0; i < count && depth < work.max_depth && !w->full && !w->failed; i++) {
    const char *name = entries[i]->d_name;
    if (entries[i]->d_type != DT_DIR || !valid_utf8((const unsigned char *)name)) continue;
    if (!strcmp(name, ".git") || !strcmp(name, "node_modules")) continue;
    size_t name_length = strlen(name);
    char *child_path = malloc(path_length + 1 + name_length + 1);
    int child = child_path ? openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (child < 0) {
      free(child_path);
      continue;
    }
    if (path_length > 0) {
      memcpy(child_path, path, path_length);
      child_path[path_length] = '/';
      memcpy(child_path + path_length + 1, name, name_length + 1);
    } else {
      memcpy(child_path, name, name_length + 1);
    }
    pthread_mutex_lock(&work.lock);
    int queued = work.length < QUEUE_LIMIT;
    if (queued) {
      work.items[work.length++] = (struct queued){child, depth + 1, child_path};
      pthread_cond_signal(&work.changed);
    }
    pthread_mutex_unlock(&work.lock);
    if (!queued) {
      walk_dir(w, child, depth + 1, child_path);
      free(child_path);
    }
  }
  free(entries);
  free(block);
  close(fd);
}

/* A walker: takes folders off the stack until it is empty and no other walker can add to it. */
static void *walker(void *output) {
  struct walk *w = output;
  pthread_mutex_lock(&work.lock);
  for (;;) {
    while (work.length == 0 && work.busy > 0) pthread_cond_wait(&work.changed, &work.lock);
    if (work.length == 0) break;
    struct queued item = work.items[--work.length];
    work.busy++;
    pthread_mutex_unlock(&work.lock);
    walk_dir(w, item.fd, item.depth, item.path);
    free(item.path);
    pthread_mutex_lock(&work.lock);
    work.busy--;
    if (work.busy == 0 && work.length == 0) pthread_cond_broadcast(&work.changed);
  }
  pthread_mutex_unlock(&work.lock);
  return NULL;
}

/* One prefetch at a time per process: the launcher starts it, the scanner of the same root takes it. */
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
  if (fd < 0) {
    pending.walks[0].failed = 1;
    return NULL;
  }
  work.max_depth = pending.max_depth;
  work.busy = 0;
  work.length = 1;
  work.items[0] = (struct queued){fd, 0, strdup("")};
  if (!work.items[0].path) {
    close(fd);
    pending.walks[0].failed = 1;
    return NULL;
  }
  pthread_t helpers[WALKERS - 1];
  int started = 0;
  for (; started < WALKERS - 1; started++)
    if (pthread_create(&helpers[started], NULL, walker, &pending.walks[started + 1]) != 0) break;
  walker(&pending.walks[0]);
  for (int i = 0; i < started; i++) pthread_join(helpers[i], NULL);
  return NULL;
}

static void release(void) {
  free(pending.root);
  for (int i = 0; i < WALKERS; i++) {
    free(pending.walks[i].strings.data);
    free(pending.walks[i].types.data);
    free(pending.walks[i].dirs.data);
    free(pending.walks[i].content.data);
  }
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
  int ok = !pending.running && argc == 2 && napi_get_value_int32(env, argv[1], &max_depth) == napi_ok;
  if (ok) {
    release();
    pending.root = string_arg(env, argv[0]);
    pending.max_depth = max_depth < 0 ? 0 : max_depth > MAX_DEPTH_LIMIT ? MAX_DEPTH_LIMIT : max_depth;
    ok = pending.root && strlen(pending.root) > 0 && pthread_create(&pending.thread, NULL, run_walk, NULL) == 0;
    pending.running = ok;
    if (!ok) release();
  }
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
  if (!pending.running) return result;
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
