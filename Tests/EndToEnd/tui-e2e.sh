#!/usr/bin/env bash
# End-to-end test of the notification-center TUI: runs the real binary in a detached tmux session,
# drives it with send-keys and reads the screen with capture-pane.
#
#   Tests/EndToEnd/tui-e2e.sh                      # after `swift build`
#   RICHPUSH_BIN=.build/release/richpush Tests/EndToEnd/tui-e2e.sh
#
# Environment:
#   RICHPUSH_BIN                   the binary (default .build/debug/richpush)
#   RICHPUSH_E2E_PAYLOADS          payload folder given to --payloads (default payloads)
#   RICHPUSH_E2E_IMAGE_PAYLOAD     a payload that gets an image (default: png-background.json, found in the folder)
#   RICHPUSH_E2E_FALLBACK_PAYLOAD  a payload that falls back (default: http-url.json, found in the folder)
#   RICHPUSH_E2E_TIMEOUT           seconds to wait for each expected screen (default 20)
#
# Prints one line per check and "N passed, N failed"; exits non-zero when a check failed.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BIN=${RICHPUSH_BIN:-.build/debug/richpush}
PAYLOADS=${RICHPUSH_E2E_PAYLOADS:-payloads}
TIMEOUT=${RICHPUSH_E2E_TIMEOUT:-20}
SOCKET="richpush-e2e-$$"
PANE="e2e"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/richpush-e2e.XXXXXX")
passed=0
failed=0

find_payload() {  # relative path of the first payload named $1 under $PAYLOADS
    (cd "$PAYLOADS" && find . -name "$1" -not -path '*/.*' | sed 's|^\./||' | LC_ALL=C sort | head -n 1)
}
IMAGE_PAYLOAD=${RICHPUSH_E2E_IMAGE_PAYLOAD:-$(find_payload png-background.json)}
FALLBACK_PAYLOAD=${RICHPUSH_E2E_FALLBACK_PAYLOAD:-$(find_payload http-url.json)}

tm() { tmux -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1
    sleep 0.2
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tm capture-pane -p -t "$PANE" 2>/dev/null; }
now_ms() { date +%s%3N; }
pass() {
    passed=$((passed + 1))
    echo "ok - $1"
}
fail() {
    failed=$((failed + 1))
    echo "not ok - $1"
    echo "---- screen ----"
    screen | sed 's/^/    /'
    echo "----------------"
}

# wait_for DESCRIPTION TEXT [TIMEOUT]: polls the screen until it contains TEXT (fixed string).
wait_for() {
    local description=$1 text=$2 limit=${3:-$TIMEOUT}
    local deadline=$(($(now_ms) + limit * 1000))
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if screen | grep -qF -- "$text"; then
            pass "$description"
            return 0
        fi
        sleep 0.05
    done
    fail "$description (waited ${limit}s for \"$text\")"
    return 1
}

# wait_gone DESCRIPTION TEXT: polls until the screen no longer contains TEXT.
wait_gone() {
    local description=$1 text=$2
    local deadline=$(($(now_ms) + TIMEOUT * 1000))
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if ! screen | grep -qF -- "$text"; then
            pass "$description"
            return 0
        fi
        sleep 0.05
    done
    fail "$description (\"$text\" still on screen after ${TIMEOUT}s)"
    return 1
}

keys() { tm send-keys -t "$PANE" "$@"; }

# select_payload RELATIVE_PATH: moves the library cursor (which shows "▶ NAME") to the file.
select_payload() {
    local name=$1 tries=0
    keys g
    while [ $tries -lt 200 ]; do
        if screen | grep -qF -- "▶ $name"; then
            pass "library cursor on $name"
            return 0
        fi
        keys Down
        tries=$((tries + 1))
        sleep 0.05
    done
    fail "library cursor never reached $name"
    return 1
}

# launch EXTRA_ARGS...: starts the TUI in the pane's shell, echoing its exit status and the tty
# settings afterwards so the checks can see that the terminal was restored.
launch() {
    keys -l "clear; stty -g > '$WORK/stty.before'; $BIN tui --payloads '$PAYLOADS' $*; echo EXIT=\$?; stty -g > '$WORK/stty.after'; cmp -s '$WORK/stty.before' '$WORK/stty.after' && echo STTY=re''stored || echo STTY=changed"
    LAUNCHED_AT=$(now_ms)
    keys Enter
}

if [ ! -x "$BIN" ]; then
    echo "not ok - $BIN is not an executable (build first, or set RICHPUSH_BIN)"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ -z "$IMAGE_PAYLOAD" ] || [ -z "$FALLBACK_PAYLOAD" ]; then
    echo "not ok - payloads png-background.json / http-url.json not found under $PAYLOADS"
    echo "0 passed, 1 failed"
    exit 1
fi

tm new-session -d -s e2e -n "$PANE" -x 120 -y 40 \
    "env -i HOME='$WORK' HISTFILE=/dev/null PATH='$PATH' LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color PS1='$ ' bash --norc --noprofile"
tm set-option -t e2e -g status off >/dev/null
tm set-window-option -t e2e -g window-size manual >/dev/null 2>&1

# 1. Launch and first frame.
launch --state background
if wait_for "first frame shows the header with the app state" "App state: BACKGROUND"; then
    echo "# first frame after $(($(now_ms) - LAUNCHED_AT)) ms (tmux polling included)"
fi
wait_for "first frame shows the payload library" "Payloads ("
wait_for "first frame shows the notification center" "Notification Center (0)"

# 2. App state keys.
keys c
wait_for "c switches to closed" "App state: CLOSED"
keys s
wait_for "s cycles closed -> foreground" "App state: FOREGROUND"
pressed=$(now_ms)
keys b
if wait_for "b switches to background" "App state: BACKGROUND"; then
    echo "# key press to redrawn frame: $(($(now_ms) - pressed)) ms (tmux polling included)"
fi

# 3. A payload that gets an image.
select_payload "$IMAGE_PAYLOAD" && keys Enter
wait_for "the image payload is delivered rich" "png 640x480"

# 4. A payload that falls back to plain text.
select_payload "$FALLBACK_PAYLOAD" && keys Enter
wait_for "the http payload falls back with its reason" "plain text — insecureURL"
wait_for "both notifications are listed" "Notification Center (2)"

# 5. Detail view of the rich notification (second from the top: newest first).
keys Tab Down Enter
wait_for "detail view opens" "Notification detail"
wait_for "detail shows the attachment's SHA-256" "SHA-256"
wait_for "detail shows the MIME type" "image/png"
wait_for "detail shows the timeline" "Timeline"
keys G
wait_for "detail timeline reaches presentation" "presented"
keys Escape
wait_gone "Esc closes the detail view" "Notification detail"

# 5b. Deleting a notification removes its downloaded image file.
keys Enter
wait_for "the detail shows the attachment's local file" "Local file"
attachment=$(screen | sed -n 's/.*Local file  *\(\/[^ │]*\).*/\1/p' | head -n 1)
if [ -n "$attachment" ] && [ -f "$attachment" ]; then
    pass "the attachment file exists while the notification is listed"
else
    fail "the attachment file exists while the notification is listed (got \"$attachment\")"
fi
keys d
wait_for "d in the detail view deletes the notification" "Notification Center (1)"
deadline=$(($(now_ms) + 5000))
while [ -n "$attachment" ] && [ -f "$attachment" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
if [ -n "$attachment" ] && [ ! -e "$attachment" ]; then
    pass "deleting the notification removed its attachment file"
else
    fail "deleting the notification removed its attachment file ($attachment)"
fi

# 6. Help overlay.
keys '?'
wait_for "? opens the help overlay" "Keys · Esc or ? to close"
keys Escape
wait_gone "Esc closes the help" "Keys · Esc or ? to close"

# 7. Foreground: a plain banner, no image.
keys Tab f
wait_for "f switches to foreground" "App state: FOREGROUND"
select_payload "$IMAGE_PAYLOAD" && keys Enter
wait_for "a foreground arrival shows a banner" "Banner · app in foreground"
wait_for "a foreground arrival is plain text" "plain text — foreground"
wait_gone "the banner goes away by itself" "Banner · app in foreground"

# 8. Resizing, down to a terminal too small for the layout, and back.
tm resize-window -t e2e -x 50 -y 12
wait_for "a too-small terminal gets a clear message" "Terminal too small"
tm resize-window -t e2e -x 120 -y 40
wait_for "the layout comes back after resizing" "Notification Center (2)"

# 9. q quits with status 0 and the terminal restored.
keys q
wait_for "q exits with status 0" "EXIT=0"
wait_for "the terminal settings are restored after q" "STTY=restored"
wait_gone "the UI is gone from the screen after q" "App state:"
store=$(dirname "${attachment:-/nonexistent/x}")
if [ -n "$attachment" ] && [ ! -e "$store" ]; then
    pass "quitting removed the attachment folder"
else
    fail "quitting removed the attachment folder ($store)"
fi

# 10. Ctrl-C also quits cleanly.
launch --state closed
wait_for "second launch shows the requested state" "App state: CLOSED"
keys C-c
wait_for "Ctrl-C exits with status 0" "EXIT=0"
wait_for "the terminal settings are restored after Ctrl-C" "STTY=restored"

# 11. SIGTERM (e.g. the CI job or a window manager closing it) leaves as cleanly as q.
launch --state background
wait_for "third launch shows the notification center" "App state: BACKGROUND"
pid=$(pgrep -n -f -- "tui --payloads $PAYLOADS --state background" || true)
if [ -n "$pid" ]; then
    kill -TERM "$pid"
    wait_for "SIGTERM exits with status 0" "EXIT=0"
    wait_for "the terminal settings are restored after SIGTERM" "STTY=restored"
else
    fail "SIGTERM: no richpush process found"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
