// Times short commands: start-bench N CMD... ::: CMD... [::: CMD...] runs the commands in
// turn, N rounds (so that each round's machine load falls on all of them alike), each with
// its stdout and stderr on /dev/null, and prints each command's median wall time a run
// (and the fastest), and its median user+sys time from wait4.
//
//   cc -O2 -o /tmp/start-bench Tools/start-bench.c
//   /tmp/start-bench 100 ./rewind-old check one.journal ::: ./rewind-new check one.journal
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3 || atoi(argv[1]) < 1) {
    fprintf(stderr, "usage: start-bench ROUNDS COMMAND... [::: COMMAND...]\n");
    return 64;
  }
  int rounds = atoi(argv[1]);
  char **commands[16];
  int count = 0;
  commands[count++] = argv + 2;
  for (int i = 2; i < argc && count < 16; i++) {
    if (strcmp(argv[i], ":::") == 0) {
      argv[i] = NULL;
      commands[count++] = argv + i + 1;
    }
  }
  double *wall[16], *cpu[16];
  for (int c = 0; c < count; c++) {
    wall[c] = malloc(rounds * sizeof(double));
    cpu[c] = malloc(rounds * sizeof(double));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (int round = 0; round < rounds; round++) {
    for (int c = 0; c < count; c++) {
      struct timespec start, end;
      clock_gettime(CLOCK_MONOTONIC, &start);
      pid_t pid;
      if (posix_spawn(&pid, commands[c][0], &actions, NULL, commands[c], environ) != 0) {
        perror(commands[c][0]);
        return 1;
      }
      int status;
      struct rusage usage;
      wait4(pid, &status, 0, &usage);
      clock_gettime(CLOCK_MONOTONIC, &end);
      wall[c][round] = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
      cpu[c][round] = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
    }
  }
  for (int c = 0; c < count; c++) {
    qsort(wall[c], rounds, sizeof(double), compare);
    qsort(cpu[c], rounds, sizeof(double), compare);
    printf("%-28s wall median %.2f ms (fastest %.2f), user+sys median %.2f ms\n", commands[c][0],
      wall[c][rounds / 2], wall[c][0], cpu[c][rounds / 2]);
  }
  return 0;
}
