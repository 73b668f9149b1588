// Primes cgroup v1 moves (N-API): a thread of ours writes itself into the cgroup it is already in, off the JS thread.
//
// On cgroup v1 every move (a write to cgroup.procs or tasks) takes the kernel's global threadgroup lock for writing,
// and the first such write after a quiet spell waits for an RCU grace period (~15 ms on the VM measured in
// docs/performance.md); writes within about one more grace period skip that wait. A run's own moves come right
// after its spawn, on the critical path. This module makes a no-op move first, from a short-lived thread that moves
// only itself: the JavaScript thread's cgroups are never written (level 1's bornInside moves that thread itself).
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *move_self(void *tasks_file) {
  int fd = open(tasks_file, O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    char tid[24];
    int length = snprintf(tid, sizeof tid, "%d", gettid());
    // Best effort: a failed write leaves the next move's wait where it was.
    if (write(fd, tid, (size_t)length) < 0) (void)0;
    close(fd);
  }
  free(tasks_file);
  return NULL;
}

/* prime(tasksFile): starts the thread that writes itself into `tasksFile` (its own cgroup's); false when it could not. */
static napi_value prime(napi_env env, napi_callback_info info) {
  size_t argc = 1, length = 0;
  napi_value argv[1], result;
  int ok = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc == 1 && napi_get_value_string_utf8(env, argv[0], NULL, 0, &length) == napi_ok && length > 0) {
    char *path = malloc(length + 1);
    pthread_attr_t attributes;
    pthread_t thread;
    if (path && napi_get_value_string_utf8(env, argv[0], path, length + 1, &length) == napi_ok &&
        pthread_attr_init(&attributes) == 0) {
      pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
      pthread_attr_setstacksize(&attributes, 64 * 1024);
      ok = pthread_create(&thread, &attributes, move_self, path) == 0;
      pthread_attr_destroy(&attributes);
    }
    if (!ok) free(path);
  }
  napi_get_boolean(env, ok, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "prime", NAPI_AUTO_LENGTH, prime, NULL, &fn);
  napi_set_named_property(env, exports, "prime", fn);
  return exports;
}
