/* scripts/bench/slow_wal_fsync.c — an LD_PRELOAD shim for the benchmarks'
 * slow-disk mode (SLOW_WAL_FSYNC_MS in lib.sh): every fsync/fdatasync of a
 * file under a pg_wal/ directory sleeps SLOW_WAL_FSYNC_MS milliseconds
 * first, as a slow disk's cache flush would. Both servers keep their WAL in
 * pg_wal/, so both pay the same. Data-file syncs are left alone. Built by
 * lib.sh with the system C compiler; never part of the server. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int IsWalFile(int fd) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = '\0';
  return strstr(path, "/pg_wal/") != NULL;
}

static void MaybeSleep(int fd) {
  static long delay_ms = -1;
  if (delay_ms < 0) {
    const char* s = getenv("SLOW_WAL_FSYNC_MS");
    delay_ms = s != NULL ? atol(s) : 0;
  }
  if (delay_ms <= 0 || !IsWalFile(fd)) return;
  struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

int fsync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  MaybeSleep(fd);
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int) = NULL;
  if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  MaybeSleep(fd);
  return real(fd);
}
