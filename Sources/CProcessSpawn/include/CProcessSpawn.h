#ifndef RICHPUSH_PROCESS_SPAWN_H
#define RICHPUSH_PROCESS_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp`, its descriptors 0..3 being `descriptors[0..3]` and no other descriptor
/// open, in a process group of its own, every signal at its default and none blocked, and SIGKILL as its
/// parent-death signal: when the calling *thread* ends, the kernel kills the child (call it from a thread that
/// lives as long as the child). The child is made as glibc's posix_spawn makes one (clone with CLONE_VM and
/// CLONE_VFORK on a stack of its own), so the parent's memory is not copied.
///
/// Returns the child's pid and stores a pidfd for it in `*pidfd` (-1 when the kernel has none), or returns -errno
/// when the child could not be made or its program could not be started.
pid_t rp_spawn(const char *path, char *const argv[], char *const envp[], const int descriptors[4], int *pidfd);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC): no concurrent spawn can inherit
/// them. Returns 0, or -errno.
int rp_pipe_cloexec(int ends[2]);

/// Sends `signal` to the process behind `pidfd`: never to another process that took its pid. Returns 0, or -errno.
int rp_pidfd_signal(int pidfd, int signal);

#endif
