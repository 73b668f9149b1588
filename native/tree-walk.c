// The native walk of a skill tree: folder listings and small regular SKILL.md files, on WALKERS threads sharing a stack.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tree-walk.h"

#define QUEUE_LIMIT 256 /* folders waiting with an open descriptor; past it a walker descends itself */

struct linux_dirent64 { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };

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

void walk_tree(int root_fd, int max_depth, struct walk walks[WALKERS]) {
  work.max_depth = max_depth;
  work.busy = 0;
  work.length = 1;
  work.items[0] = (struct queued){root_fd, 0, strdup("")};
  if (!work.items[0].path) {
    close(root_fd);
    work.length = 0;
    walks[0].failed = 1;
    return;
  }
  pthread_t helpers[WALKERS - 1];
  int started = 0;
  for (; started < WALKERS - 1; started++)
    if (pthread_create(&helpers[started], NULL, walker, &walks[started + 1]) != 0) break;
  walker(&walks[0]);
  for (int i = 0; i < started; i++) pthread_join(helpers[i], NULL);
}

void free_walk(struct walk *w) {
  free(w->strings.data);
  free(w->types.data);
  free(w->dirs.data);
  free(w->content.data);
  memset(w, 0, sizeof *w);
}
