#define _GNU_SOURCE
#include "CProcessSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

struct spawn_arguments {
    const char *path;
    char *const *argv;
    char *const *envp;
    const int *descriptors;
    pid_t parent;
    sigset_t mask;
    volatile int error;
};

/// The child, on its own stack, sharing the parent's memory until execve: only system calls, nothing that
/// allocates or takes a lock.
static int child_main(void *opaque) {
    struct spawn_arguments *arguments = opaque;
    // Every signal at its default while all are still blocked: a handler of the parent's must never run here.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int signal = 1; signal < _NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, signal, &action, NULL, _NSIG / 8);
    }
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto fail;
    // The parent may have died before the line above: then nobody will ever signal it.
    if (getppid() != arguments->parent) _exit(127);
    if (setpgid(0, 0) != 0) goto fail;
    // Out of the way first, so placing one cannot overwrite another.
    int moved[4];
    for (int index = 0; index < 4; index++) {
        moved[index] = fcntl(arguments->descriptors[index], F_DUPFD, 10);
        if (moved[index] < 0) goto fail;
    }
    for (int index = 0; index < 4; index++) {
        if (dup2(moved[index], index) < 0) goto fail;
    }
    if (syscall(SYS_close_range, 4U, ~0U, 0) != 0) {
        for (int descriptor = 4; descriptor < 1024; descriptor++) close(descriptor);
    }
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    execve(arguments->path, arguments->argv, arguments->envp);
fail:
    arguments->error = errno ? errno : EINVAL;
    _exit(127);
}

pid_t rp_spawn(const char *path, char *const argv[], char *const envp[], const int descriptors[4], int *pidfd) {
    const size_t stack_size = 256 * 1024;
    void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -errno;
    struct spawn_arguments arguments = {
        .path = path, .argv = argv, .envp = envp, .descriptors = descriptors, .parent = getpid(), .error = 0};
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &arguments.mask);
    int descriptor = -1;
    // CLONE_VFORK: this thread waits until the child has called execve or exited.
    pid_t pid = clone(
        child_main, (char *)stack + stack_size, CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &arguments,
        &descriptor);
    if (pid < 0 && errno == EINVAL) {
        descriptor = -1;
        pid = clone(child_main, (char *)stack + stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
        if (pid > 0) descriptor = (int)syscall(SYS_pidfd_open, pid, 0);
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &arguments.mask, NULL);
    munmap(stack, stack_size);
    if (pid < 0) return -saved;
    if (arguments.error != 0) {
        // The child exited without becoming the program: reap it here, nobody else knows it.
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (descriptor >= 0) close(descriptor);
        return -arguments.error;
    }
    if (descriptor >= 0) fcntl(descriptor, F_SETFD, FD_CLOEXEC);
    *pidfd = descriptor;
    return pid;
}

int rp_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC) == 0 ? 0 : -errno;
}

int rp_pidfd_signal(int pidfd, int signal) {
    return syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0) == 0 ? 0 : -errno;
}
