// The native tree walk's interface (tree-walk.c), used by the N-API module (tree-prefetch.c).
#ifndef SKILLGATE_TREE_WALK_H
#define SKILLGATE_TREE_WALK_H
#include <stddef.h>
#include <stdint.h>

#define NOT_READ 0xffffffffu
#define SKILL_FILE_CHUNK 65536 /* tree-read.ts's CHUNK_BYTES: a larger SKILL.md is left to the scanner */
#define OUTPUT_LIMIT (64u << 20) /* stop recording past this many bytes; the scanner lists the rest itself */
#define MAX_DEPTH_LIMIT 64
#define WALKERS 2

struct region { uint8_t *data; size_t used, size; };

/* One walker's output: the regions below, with content offsets relative to its own content region. */
struct walk {
  struct region strings, types, dirs, content;
  uint32_t dir_count, entry_count;
  int failed, full;
};

/* Walks `root_fd` (closed here) to `max_depth` on WALKERS threads, the caller's included; one output per thread. */
void walk_tree(int root_fd, int max_depth, struct walk walks[WALKERS]);

/* Frees one walker's output and zeroes it. */
void free_walk(struct walk *w);

#endif
