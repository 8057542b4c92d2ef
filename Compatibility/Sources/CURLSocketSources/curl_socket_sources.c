// Foundation's URLSession on Linux waits for an answer in a busy loop; this stops it in a team's extension's
// process, where richpush's SDK library is loaded before libcurl and so defines `curl_multi_setopt` first.
//
// The bug (swift-corelibs-foundation, Sources/FoundationNetworking/URLSession/libcurl/MultiHandle.swift): libcurl
// tells its socket callback (CURLMOPT_SOCKETFUNCTION) what to wait for on a socket, CURL_POLL_OUT or
// CURL_POLL_INOUT while it connects and sends, CURL_POLL_IN while it waits for the answer. Foundation's callback
// makes a dispatch source for each readiness asked for, but never cancels one no longer asked for: the write source
// made for the request stays, the socket is always writable, and libdispatch, Foundation and libcurl go round
// without end until the answer comes (75% of a core measured for one waiting request, no proxy, no TLS:
// Benchmarks/urlsession-spin).
//
// The fix, outside Foundation: every multi handle's socket callback is wrapped; when libcurl goes from waiting for
// write readiness to waiting for read readiness alone, the wrapper tells Foundation's callback CURL_POLL_REMOVE
// (which cancels both sources and drops its per-socket object), clears the socket's assigned pointer
// (curl_multi_assign), then passes CURL_POLL_IN on (a read source alone). Foundation already handles a remove and a
// register in a row for one socket (its sources are re-made once the old ones' cancellation is done). Every other
// option and call goes to libcurl unchanged.
//
// Names and values are libcurl's public API (curl/multi.h): CURLMOPT_SOCKETFUNCTION = CURLOPTTYPE_FUNCTIONPOINT + 1,
// CURLMOPT_SOCKETDATA = CURLOPTTYPE_OBJECTPOINT + 2, CURL_POLL_NONE..CURL_POLL_REMOVE = 0..4.
// https://curl.se/libcurl/c/CURLMOPT_SOCKETFUNCTION.html, https://curl.se/libcurl/c/curl_multi_assign.html
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

#include "CURLSocketSources.h"

typedef void CURL;
typedef void CURLM;
typedef int CURLMcode;
typedef int curl_socket_t;
typedef int (*socket_callback)(CURL *easy, curl_socket_t socket, int what, void *clientp, void *socketp);
typedef CURLMcode (*setopt_function)(CURLM *multi, int option, ...);
typedef CURLMcode (*assign_function)(CURLM *multi, curl_socket_t socket, void *pointer);
typedef CURLMcode (*cleanup_function)(CURLM *multi);

enum { WAIT_NONE = 0, WAIT_IN = 1, WAIT_OUT = 2, WAIT_INOUT = 3, WAIT_REMOVE = 4 };
enum { OPTION_SOCKETFUNCTION = 20001, OPTION_SOCKETDATA = 10002 };
enum { WATCHED_MULTIS = 256, WATCHED_SOCKETS = 32 };

/// One multi handle's socket callback and data as Foundation set them, and what libcurl last asked for each socket.
struct watch {
    CURLM *multi;
    socket_callback callback;
    void *data;
    curl_socket_t sockets[WATCHED_SOCKETS];
    int waits[WATCHED_SOCKETS];
};

static struct watch watches[WATCHED_MULTIS];
static pthread_mutex_t watches_lock = PTHREAD_MUTEX_INITIALIZER;

/// libcurl's own functions, looked up once.
static setopt_function next_setopt;
static assign_function next_assign;
static cleanup_function next_cleanup;
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void find_next_definitions(void) {
    next_setopt = (setopt_function)dlsym(RTLD_NEXT, "curl_multi_setopt");
    next_assign = (assign_function)dlsym(RTLD_NEXT, "curl_multi_assign");
    next_cleanup = (cleanup_function)dlsym(RTLD_NEXT, "curl_multi_cleanup");
}

/// The watch of `multi`, made when `make`; NULL when there is none (or no room: that handle goes unwrapped).
static struct watch *watch_of(CURLM *multi, int make) {
    struct watch *unused = NULL;
    for (int index = 0; index < WATCHED_MULTIS; index++) {
        if (watches[index].multi == multi) return &watches[index];
        if (watches[index].multi == NULL && unused == NULL) unused = &watches[index];
    }
    if (!make || unused == NULL) return NULL;
    unused->multi = multi;
    unused->callback = NULL;
    unused->data = NULL;
    for (int index = 0; index < WATCHED_SOCKETS; index++) unused->sockets[index] = -1;
    return unused;
}

/// Records what libcurl now waits for on `socket`; returns what it waited for before (WAIT_NONE when unknown).
static int record_wait(struct watch *watch, curl_socket_t socket, int what) {
    int slot = -1;
    for (int index = 0; index < WATCHED_SOCKETS; index++) {
        if (watch->sockets[index] == socket) {
            slot = index;
            break;
        }
        if (watch->sockets[index] == -1 && slot == -1) slot = index;
    }
    if (slot == -1) return WAIT_NONE;
    int before = watch->sockets[slot] == socket ? watch->waits[slot] : WAIT_NONE;
    watch->sockets[slot] = what == WAIT_REMOVE ? -1 : socket;
    watch->waits[slot] = what;
    return before;
}

static int watched_socket_callback(CURL *easy, curl_socket_t socket, int what, void *clientp, void *socketp) {
    struct watch *watch = clientp;
    pthread_mutex_lock(&watches_lock);
    int before = record_wait(watch, socket, what);
    socket_callback callback = watch->callback;
    void *data = watch->data;
    CURLM *multi = watch->multi;
    pthread_mutex_unlock(&watches_lock);
    if (callback == NULL) return 0;
    if (what == WAIT_IN && (before == WAIT_OUT || before == WAIT_INOUT)) {
        pthread_once(&next_once, find_next_definitions);
        assign_function assign = next_assign;
        if (assign != NULL) {
            callback(easy, socket, WAIT_REMOVE, data, socketp);
            assign(multi, socket, NULL);
            return callback(easy, socket, WAIT_IN, data, NULL);
        }
    }
    return callback(easy, socket, what, data, socketp);
}

CURLMcode curl_multi_setopt(CURLM *multi, int option, ...) {
    // Every option's value is one word (a long, a pointer, a function pointer or a curl_off_t on LP64).
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    pthread_once(&next_once, find_next_definitions);
    setopt_function next = next_setopt;
    if (next == NULL) return 1;  // CURLM_BAD_HANDLE: no libcurl behind this one
    if (option != OPTION_SOCKETFUNCTION && option != OPTION_SOCKETDATA) return next(multi, option, value);
    pthread_mutex_lock(&watches_lock);
    struct watch *watch = watch_of(multi, 1);
    if (watch != NULL) {
        if (option == OPTION_SOCKETFUNCTION) {
            watch->callback = (socket_callback)value;
        } else {
            watch->data = value;
        }
    }
    pthread_mutex_unlock(&watches_lock);
    if (watch == NULL) return next(multi, option, value);
    if (option == OPTION_SOCKETDATA) return next(multi, option, (void *)watch);
    return next(multi, option, value == NULL ? NULL : (void *)watched_socket_callback);
}

CURLMcode curl_multi_cleanup(CURLM *multi) {
    pthread_once(&next_once, find_next_definitions);
    cleanup_function next = next_cleanup;
    CURLMcode code = next == NULL ? 1 : next(multi);
    pthread_mutex_lock(&watches_lock);
    struct watch *watch = watch_of(multi, 0);
    if (watch != NULL) watch->multi = NULL;
    pthread_mutex_unlock(&watches_lock);
    return code;
}
