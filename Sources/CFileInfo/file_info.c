#define _GNU_SOURCE
#include "CFileInfo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static void rp_fill(const struct stat *status, rp_file_info *info) {
    switch (status->st_mode & S_IFMT) {
    case S_IFREG: info->kind = RP_FILE_REGULAR; break;
    case S_IFDIR: info->kind = RP_FILE_DIRECTORY; break;
    case S_IFIFO: info->kind = RP_FILE_FIFO; break;
    case S_IFSOCK: info->kind = RP_FILE_SOCKET; break;
    case S_IFCHR: info->kind = RP_FILE_CHARACTER_DEVICE; break;
    case S_IFBLK: info->kind = RP_FILE_BLOCK_DEVICE; break;
    case S_IFLNK: info->kind = RP_FILE_SYMLINK; break;
    default: info->kind = RP_FILE_OTHER; break;
    }
    info->size = (int64_t)status->st_size;
    info->device = (uint64_t)status->st_dev;
    info->inode = (uint64_t)status->st_ino;
    info->owner = (uint32_t)status->st_uid;
    info->permissions = (uint32_t)(status->st_mode & 07777);
}

int rp_file_info_at(const char *path, int follow_links, rp_file_info *info) {
    struct stat status;
    int result = follow_links ? stat(path, &status) : lstat(path, &status);
    if (result != 0) return -1;
    rp_fill(&status, info);
    return 0;
}

int rp_file_info_of(int descriptor, rp_file_info *info) {
    struct stat status;
    if (fstat(descriptor, &status) != 0) return -1;
    rp_fill(&status, info);
    return 0;
}

const char *rp_file_kind_phrase(rp_file_kind kind) {
    switch (kind) {
    case RP_FILE_REGULAR: return "a regular file";
    case RP_FILE_DIRECTORY: return "a folder";
    case RP_FILE_FIFO: return "a FIFO (named pipe)";
    case RP_FILE_SOCKET: return "a socket";
    case RP_FILE_CHARACTER_DEVICE: return "a character device";
    case RP_FILE_BLOCK_DEVICE: return "a block device";
    case RP_FILE_SYMLINK: return "a symbolic link";
    default: return "a special file";
    }
}

int rp_rename_noreplace(const char *from, const char *to) {
#ifdef __APPLE__
    if (renamex_np(from, to, RENAME_EXCL) == 0) return 0;
#else
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
#endif
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
    // The file system has no such rename: link(2) never replaces either, then the old name goes (and when it cannot
    // go, the new one goes again, so the file never ends up under both names).
    if (link(from, to) != 0) return -1;
    if (unlink(from) != 0) {
        int error = errno;
        unlink(to);
        errno = error;
        return -1;
    }
    return 0;
}

int rp_write_all(int descriptor, const void *bytes, size_t count) {
    const char *next = bytes;
    while (count > 0) {
        ssize_t written = write(descriptor, next, count);
        if (written >= 0) {
            next += written;
            count -= (size_t)written;
            continue;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            // A descriptor left non-blocking by another program: wait until it takes more.
            struct pollfd waiting = {.fd = descriptor, .events = POLLOUT};
            poll(&waiting, 1, -1);
            continue;
        }
        return errno;
    }
    return 0;
}

ssize_t rp_read_full(int descriptor, void *bytes, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t got = read(descriptor, (char *)bytes + done, count - done);
        if (got > 0) {
            done += (size_t)got;
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            return -1;
        }
    }
    return (ssize_t)done;
}

int rp_random_bytes(void *bytes, size_t count) {
    ssize_t got;
    do {
        got = getrandom(bytes, count, 0);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    if ((size_t)got != count) {
        errno = EIO;
        return -1;
    }
    return 0;
}
