#ifndef RICHPUSH_CFILEINFO_H
#define RICHPUSH_CFILEINFO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// What richpush needs to know about a file, in a struct of its own: Swift code never touches `struct stat`,
/// whose members Swift credits to different clang modules (Glibc, CoreFoundation, CDispatch) depending on what
/// else a file imports, which breaks clean builds under MemberImportVisibility.
typedef enum {
    RP_FILE_REGULAR = 0,
    RP_FILE_DIRECTORY = 1,
    RP_FILE_FIFO = 2,
    RP_FILE_SOCKET = 3,
    RP_FILE_CHARACTER_DEVICE = 4,
    RP_FILE_BLOCK_DEVICE = 5,
    RP_FILE_SYMLINK = 6,
    RP_FILE_OTHER = 7
} rp_file_kind;

typedef struct {
    rp_file_kind kind;
    int64_t size;
    uint64_t device;
    uint64_t inode;
    uint32_t owner;
    /// The permission bits of st_mode (07777).
    uint32_t permissions;
} rp_file_info;

/// stat(2) (follow_links != 0) or lstat(2); returns 0, or -1 with errno set.
int rp_file_info_at(const char *path, int follow_links, rp_file_info *info);

/// fstat(2) of an open descriptor; returns 0, or -1 with errno set.
int rp_file_info_of(int descriptor, rp_file_info *info);

/// "a FIFO (named pipe)", "a socket", …: the kind in words, for messages.
const char *rp_file_kind_phrase(rp_file_kind kind);

/// Renames `from` to `to` in one step without ever replacing an existing `to` (renameat2 with RENAME_NOREPLACE);
/// where the file system cannot do that, a hard link and an unlink, which never replace either. Returns 0, or -1
/// with errno set (EEXIST when `to` exists; EPERM, EOPNOTSUPP or EXDEV when neither way works there).
int rp_rename_noreplace(const char *from, const char *to);

/// write(2) until all `count` bytes are out: interrupted writes are resumed, and a descriptor left non-blocking by
/// another program is waited for (poll) rather than given up on. Returns 0, or the errno that stopped it.
int rp_write_all(int descriptor, const void *bytes, size_t count);

/// read(2) until `count` bytes are in or the file ends, interrupted reads resumed. Returns how many bytes were
/// read, or -1 with errno set.
ssize_t rp_read_full(int descriptor, void *bytes, size_t count);

/// Fills `count` bytes (at most 256) from the kernel's random generator in one getrandom(2) call. 0 on success,
/// -1 with errno set.
int rp_random_bytes(void *bytes, size_t count);

#endif
