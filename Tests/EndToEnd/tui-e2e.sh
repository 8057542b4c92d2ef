#!/usr/bin/env bash
# End-to-end test of the notification-center TUI: runs the real binary in a detached tmux session,
# drives it with send-keys and reads the screen with capture-pane.
#
#   Tests/EndToEnd/tui-e2e.sh                      # after `swift build`
#   RICHPUSH_BIN=.build/release/richpush Tests/EndToEnd/tui-e2e.sh
#
# Every key is sent once, then the script waits until the screen shows what that key must change;
# the timeout only bounds a failure, and no key is ever sent again. The payloads are copied into a
# fresh folder so the library's order, and so each cursor move, is known.
#
# Environment:
#   RICHPUSH_BIN                   the binary (default .build/debug/richpush)
#   RICHPUSH_E2E_PAYLOADS          the corpus the payloads are copied from (default payloads); its images/
#                                  folder is the fixture root
#   RICHPUSH_E2E_IMAGE_PAYLOAD     a payload that gets an image (default: png-background.json, found in the corpus)
#   RICHPUSH_E2E_FALLBACK_PAYLOAD  a payload that falls back (default: http-url.json, found in the corpus)
#   RICHPUSH_E2E_TIMEOUT           seconds to wait for each expected screen before failing (default 20)
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
LIBRARY="$WORK/payloads"
passed=0
failed=0

find_payload() {  # relative path of the first payload named $1 under $PAYLOADS (not one written for a team's extension)
    (cd "$PAYLOADS" && find . -name "$1" -not -path '*/.*' -not -path './extensions/*' | sed 's|^\./||' | LC_ALL=C sort | head -n 1)
}
IMAGE_PAYLOAD=${RICHPUSH_E2E_IMAGE_PAYLOAD:-$(find_payload png-background.json)}
FALLBACK_PAYLOAD=${RICHPUSH_E2E_FALLBACK_PAYLOAD:-$(find_payload http-url.json)}
EXPIRED_PAYLOAD=$(find_payload extension-expired.json)

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

# wait_for DESCRIPTION TEXT: waits until the screen contains TEXT (a fixed string). The timeout only
# bounds a failure.
wait_for() {
    local description=$1 text=$2
    local deadline=$(($(now_ms) + TIMEOUT * 1000))
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if screen | grep -qF -- "$text"; then
            pass "$description"
            return 0
        fi
        sleep 0.05
    done
    fail "$description (waited ${TIMEOUT}s for \"$text\")"
    return 1
}

# wait_for_line DESCRIPTION REGEX: waits until a line of the screen matches REGEX (extended).
wait_for_line() {
    local description=$1 pattern=$2
    local deadline=$(($(now_ms) + TIMEOUT * 1000))
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if screen | grep -qE -- "$pattern"; then
            pass "$description"
            return 0
        fi
        sleep 0.05
    done
    fail "$description (waited ${TIMEOUT}s for a line matching /$pattern/)"
    return 1
}

# wait_gone DESCRIPTION TEXT: waits until the screen no longer contains TEXT.
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

# image_colors: how many 256-colour SGR changes (38;5;N or 48;5;N) capture-pane -e shows. The UI's own text
# uses the 8 basic colours only, so these are image cells.
image_colors() { tm capture-pane -e -p -t "$PANE" 2>/dev/null | grep -oE $'\e\\[[0-9;]*[34]8;5;[0-9]+' | wc -l; }
# direct_colors: the same for 24-bit colours (38;2;R;G;B or 48;2;R;G;B), a direct-colour terminal's image cells.
direct_colors() {
    tm capture-pane -e -p -t "$PANE" 2>/dev/null | grep -oE $'\e\\[[0-9;]*[34]8;2;[0-9]+;[0-9]+;[0-9]+' | wc -l
}
colored_screen() { tm capture-pane -e -p -t "$PANE" 2>/dev/null; }
# expect_no_image_colors DESCRIPTION: passes when the screen shows no 256-colour image cell now.
expect_no_image_colors() {
    local count
    count=$(image_colors)
    if [ "$count" -eq 0 ]; then pass "$1"; else fail "$1 ($count 256-colour changes)"; fi
}

# wait_for_image DESCRIPTION MIN [COUNTER]: waits until at least MIN image colour changes are on screen, as
# COUNTER (image_colors by default, or direct_colors) counts them.
wait_for_image() {
    local description=$1 minimum=$2 counter=${3:-image_colors} count=0
    local deadline=$(($(now_ms) + TIMEOUT * 1000))
    while [ "$(now_ms)" -lt "$deadline" ]; do
        count=$($counter)
        if [ "$count" -ge "$minimum" ]; then
            pass "$description ($count colour changes)"
            return 0
        fi
        sleep 0.05
    done
    fail "$description (waited ${TIMEOUT}s for $minimum image colour changes, saw $count)"
    return 1
}

# press KEY DESCRIPTION TEXT: sends one key, once, then waits for the text it must bring on screen.
press() {
    local key=$1 description=$2 text=$3
    keys "$key"
    wait_for "$description" "$text"
}

# launch EXTRA_ARGS...: starts the TUI in the pane's shell, echoing its exit status and the tty
# settings afterwards so the checks can see that the terminal was restored.
launch() {
    keys -l "clear; stty -g > '$WORK/stty.before'; $BIN tui '$LIBRARY' --fixtures '$PAYLOADS/images' $*; echo EXIT=\$?; stty -g > '$WORK/stty.after'; cmp -s '$WORK/stty.before' '$WORK/stty.after' && echo STTY=re''stored || echo STTY=changed"
    LAUNCHED_AT=$(now_ms)
    keys Enter
}

# quit_by_signal NAME: the running TUI gets the signal and must leave as cleanly as with q.
quit_by_signal() {
    local name=$1 pid
    pid=$(pgrep -n -f -- "tui $LIBRARY" || true)
    if [ -z "$pid" ]; then
        fail "SIG$name: no richpush process found"
        return 1
    fi
    kill -"$name" "$pid"
    wait_for "SIG$name exits with status 0" "EXIT=0"
    wait_for "the terminal settings are restored after SIG$name" "STTY=restored"
}

# local_file: the attachment path the open detail view shows.
local_file() { screen | sed -n 's/.*Local file  *\(\/[^ │]*\).*/\1/p' | head -n 1; }

if [ ! -x "$BIN" ]; then
    echo "not ok - $BIN is not an executable (build first, or set RICHPUSH_BIN)"
    echo "0 passed, 1 failed"
    exit 1
fi
if [ -z "$IMAGE_PAYLOAD" ] || [ -z "$FALLBACK_PAYLOAD" ] || [ -z "$EXPIRED_PAYLOAD" ]; then
    echo "not ok - payloads png-background.json / http-url.json / extension-expired.json not found under $PAYLOADS"
    echo "0 passed, 1 failed"
    exit 1
fi

# The library, in the order the TUI lists it: each payload with its expectation (the given settings).
copy_payload() {  # SOURCE (relative to $PAYLOADS) DESTINATION (relative to the library)
    mkdir -p "$(dirname "$LIBRARY/$2")"
    cp "$PAYLOADS/$1" "$LIBRARY/$2"
    if [ -f "$PAYLOADS/${1%.json}.expect.json" ]; then cp "$PAYLOADS/${1%.json}.expect.json" "$LIBRARY/${2%.json}.expect.json"; fi
}
copy_payload "$EXPIRED_PAYLOAD" fallback/extension-expired.json
copy_payload "$FALLBACK_PAYLOAD" fallback/http-url.json
copy_payload "$IMAGE_PAYLOAD" rich/png-background.json
mkdir -p "$LIBRARY/threads"
for number in 1 2; do
    printf '{"aps":{"alert":{"title":"Sale update %s","body":"Prices drop again"},"thread-id":"sale"}}\n' \
        "$number" > "$LIBRARY/threads/sale-$number.json"
done
# A 4 s budget of its own and an image that takes longer: seconds in flight to read the countdown.
mkdir -p "$LIBRARY/timing"
printf '%s\n' '{"aps":{"alert":{"title":"Own budget","body":"Four seconds"},"mutable-content":1},' \
    '"fcm_options":{"image":"https://fixtures.richpush.test/cat.png?delay=8s"}}' > "$LIBRARY/timing/budget-4s.json"
printf '%s\n' '{"given":{"downloadTimeout":"10s","extensionBudget":"4s"},' \
    '"expect":{"fallback":{"reason":"extensionExpired"}}}' > "$LIBRARY/timing/budget-4s.expect.json"

tm new-session -d -s e2e -n "$PANE" -x 120 -y 40 \
    "env -i HOME='$WORK' HISTFILE=/dev/null PATH='$PATH' LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color PS1='$ ' bash --norc --noprofile"
tm set-option -t e2e -g status off >/dev/null
tm set-window-option -t e2e -g window-size manual >/dev/null 2>&1

# 1. Launch and first frame. The app's willPresent returns .banner, so a foreground arrival is a banner (section 10).
launch --state background --foreground-options banner
if wait_for "first frame shows the header with the app state" "App state: BACKGROUND"; then
    echo "# first frame after $(($(now_ms) - LAUNCHED_AT)) ms (tmux polling included)"
fi
wait_for "first frame shows the payload library" "Payloads (6)"
wait_for "first frame shows the notification center" "Notification Center (0)"
wait_for "the library cursor starts on the first payload" "▶ fallback/extension-expired.json"

# 2. App state keys.
press c "c switches to closed" "App state: CLOSED"
press s "s cycles closed -> foreground" "App state: FOREGROUND"
pressed=$(now_ms)
if press b "b switches to background" "App state: BACKGROUND"; then
    echo "# key press to redrawn frame: $(($(now_ms) - pressed)) ms (tmux polling included)"
fi

# 3. A payload that gets an image.
press Down "Down moves the library cursor" "▶ fallback/http-url.json"
press Down "Down moves the library cursor again" "▶ rich/png-background.json"
press Enter "the image payload is delivered rich" "png 640x480"
wait_for_image "the rich notification's thumbnail is drawn in colours at the right of its row" 6

# 4. A payload that falls back to plain text.
press Up "Up moves the library cursor back" "▶ fallback/http-url.json"
press Enter "the http payload falls back with its reason" "plain text — insecureURL"
wait_for "both notifications are listed" "Notification Center (2)"

# 5. The limits of that payload: its expectation gives the extension a 1 s budget.
press Up "Up reaches the first payload" "▶ fallback/extension-expired.json"
press Enter "the payload whose own 1 s budget runs out falls back" "plain text — extensionExpired"
# Tab only changes highlighting, which capture-pane does not show: the key after it proves it.
keys Tab
press Enter "Enter on the newest notification opens its detail" "Notification detail"
wait_for "the detail explains the expiry with the payload's own budget" "used up its 1 second"
wait_for "the detail says what else the payload said" "Sound       default"
keys Escape
wait_gone "Esc closes the detail view" "Notification detail"

# 6. Detail view of the rich notification (third from the top: newest first).
keys Down
wait_for_line "Down selects the fallback notification" "▶ [0-9:]{8}  Still delivered"
keys Down
wait_for_line "Down selects the rich notification" "▶ [0-9:]{8}  New arrivals"
press Enter "detail view opens" "Notification detail"
wait_for_image "the detail view draws the image large, in colours, on top" 40
wait_for "detail shows the MIME type" "image/png"
keys G
wait_for_line "G scrolls the detail to the timeline's end" "[0-9] s  presented"
# The phone card comes first, so the attachment's last facts are further down.
wait_for "detail shows the attachment's SHA-256" "SHA-256"

# 6b. Deleting a notification removes its downloaded image file.
wait_for "the detail shows the attachment's local file" "Local file"
attachment=$(local_file)
if [ -n "$attachment" ] && [ -f "$attachment" ]; then
    pass "the attachment file exists while the notification is listed"
else
    fail "the attachment file exists while the notification is listed (got \"$attachment\")"
fi
press d "d in the detail view deletes the notification" "Notification Center (2)"
deadline=$(($(now_ms) + TIMEOUT * 1000))
while [ -n "$attachment" ] && [ -f "$attachment" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
if [ -n "$attachment" ] && [ ! -e "$attachment" ]; then
    pass "deleting the notification removed its attachment file"
else
    fail "deleting the notification removed its attachment file ($attachment)"
fi

# 7. In flight, the countdown is the payload's own: 4 s, not the command line's 30 s.
keys Tab
press G "G moves the library cursor to the last payload" "▶ timing/budget-4s.json"
press Enter "in flight, the progress counts down from the payload's own 4 s budget" "left of 4 s budget"

# 8. Notifications with one thread-id stack; Enter spreads the stack out, Space folds it.
press Up "Up moves the library cursor to the sale payloads" "▶ threads/sale-2.json"
press Enter "the first sale notification arrives" "Notification Center (4)"
press Up "Up moves the library cursor" "▶ threads/sale-1.json"
press Enter "the second sale notification stacks on the first" "+1 more · thread sale"
wait_for "the stack counts as two notifications" "Notification Center (5)"
keys Tab
press Enter "Enter on the stack spreads it out" "thread sale · 2 notifications · Space collapses"
keys Space
wait_gone "Space folds the stack again" "Space collapses"
wait_for "the folded stack shows its newest notification and +1 more" "+1 more · thread sale"

# 9. Help overlay.
press '?' "? opens the help overlay" "Keys · Esc or ? to close"
wait_for "the help lists the stack key" "expand or collapse a stack"
keys Escape
wait_gone "Esc closes the help" "Keys · Esc or ? to close"

# 10. Foreground: a plain banner, no image.
keys Tab
press f "f switches to foreground" "App state: FOREGROUND"
press Up "Up moves the library cursor to the image payload" "▶ rich/png-background.json"
press Enter "a foreground arrival shows a banner" "Banner · app in foreground"
wait_for "a foreground arrival is plain text" "plain text — foreground"
wait_gone "the banner goes away by itself" "Banner · app in foreground"

# 10b. e writes the notifications on screen to an HTML report and names it in the status line; its header names
# the SDK picked with p and the limits that SDK delivers under (Firebase's own 60 s timeout).
press p "p picks the next SDK" "SDK: firebase"
press e "e writes the HTML report and names it in the status line" "Report written to "
report=$(screen | sed -n 's/.*Report written to \([^ │]*\.html\).*/\1/p' | head -n 1)
case "$report" in /*) ;; *) report="$ROOT/$report" ;; esac
if [ -f "$report" ] && grep -q 'Content-Security-Policy' "$report" && [ "$(grep -c '<article ' "$report")" -ge 5 ]; then
    pass "the report file exists and holds a card per finished notification"
else
    fail "the report file exists and holds a card per finished notification ($report)"
fi
if [ -f "$report" ] && grep -q '<dt>SDK</dt><dd>firebase' "$report" && grep -q '<dt>Download timeout</dt><dd>60 s</dd>' "$report"; then
    pass "the report's header names the SDK picked with p and the timeout it delivers under"
else
    fail "the report's header names the SDK picked with p and the timeout it delivers under ($(grep -o '<dl class="settings">.*</dl>' "$report" 2>/dev/null))"
fi
[ -f "$report" ] && rm -f "$report"

# 11. Resizing, down to a terminal too small for the layout, and back.
tm resize-window -t e2e -x 50 -y 12
wait_for "a too-small terminal gets a clear message" "Terminal too small"
tm resize-window -t e2e -x 120 -y 40
wait_for "the layout comes back after resizing" "Notification Center (6)"

# 12. q quits with status 0 and the terminal restored.
press q "q exits with status 0" "EXIT=0"
wait_for "the terminal settings are restored after q" "STTY=restored"
wait_gone "the UI is gone from the screen after q" "App state:"
store=$(dirname "${attachment:-/nonexistent/x}")
if [ -n "$attachment" ] && [ ! -e "$store" ]; then
    pass "quitting removed the attachment folder"
else
    fail "quitting removed the attachment folder ($store)"
fi

# 13. Ctrl-C also quits cleanly.
launch --state closed
wait_for "second launch shows the requested state" "App state: CLOSED"
press C-c "Ctrl-C exits with status 0" "EXIT=0"
wait_for "the terminal settings are restored after Ctrl-C" "STTY=restored"

# 14. SIGTERM (e.g. the CI job or a window manager closing it) leaves as cleanly as q, attachments removed.
launch --state background
wait_for "third launch shows the notification center" "App state: BACKGROUND"
press Down "the library cursor moves in the third launch" "▶ fallback/http-url.json"
press Down "the library cursor reaches the image payload" "▶ rich/png-background.json"
press Enter "the image payload is delivered before SIGTERM" "png 640x480"
keys Tab
press Enter "its detail opens" "Notification detail"
keys G
wait_for "the end of its detail shows the local file" "Local file"
attachment=$(local_file)
quit_by_signal TERM
if [ -n "$attachment" ] && [ ! -e "$(dirname "$attachment")" ]; then
    pass "SIGTERM removed the attachment folder"
else
    fail "SIGTERM removed the attachment folder ($attachment)"
fi

# 15. SIGHUP (the terminal window closed) and SIGINT (kill -INT) quit cleanly too.
for name in HUP INT; do
    launch --state background
    wait_for "launch before SIG$name shows the notification center" "App state: BACKGROUND"
    quit_by_signal "$name"
done

# 16. A HUP ignored when the TUI starts (`trap '' HUP`, as nohup does) stays ignored: the UI keeps running.
keys -l "clear; (trap '' HUP; exec $BIN tui '$LIBRARY' --fixtures '$PAYLOADS/images' --state closed); echo EXIT=\$?"
keys Enter
wait_for "a launch with HUP ignored shows the notification center" "App state: CLOSED"
pid=$(pgrep -n -f -- "tui $LIBRARY" || true)
if [ -n "$pid" ]; then
    kill -HUP "$pid"
    # The key after the signal shows the UI still answering, so the HUP was not acted on.
    press b "after an ignored HUP the UI still answers keys" "App state: BACKGROUND"
    press q "then q exits with status 0" "EXIT=0"
else
    fail "HUP ignored at launch: no richpush process found"
fi

# 17. Pushes from the network: the TUI listens (here on a free port) with the endpoint of `richpush serve`;
# `richpush push` sends a payload with an image into it, then one for a topic the app does not have.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
        || echo $((20000 + $$ % 20000))
}
PORT=$(free_port)
CA="$WORK/tui-ca.pem"
# Long limits, so a push still downloading at q would hold the exit for most of a minute if quitting waited.
# Display receipts go to the TUI's own endpoint, whose CA the receipt sender must trust.
launch --state background --listen "127.0.0.1:$PORT" --ca-out "'$CA'" --bundle-id com.example.app \
    --download-timeout 50s --extension-budget 55s --receipt-url "https://127.0.0.1:$PORT/richpush/v1/receipts"
wait_for "the header shows the address pushes are received on" "listening 127.0.0.1:$PORT"
wait_for "the status line names the CA certificate" "CA certificate: $CA"
press '?' "the help overlay opens in the listening TUI" "Keys · Esc or ? to close"
wait_for "the help names the CA certificate to trust" "CA certificate (curl --cacert): $CA"
keys Escape
wait_gone "Esc closes the help in the listening TUI" "Keys · Esc or ? to close"
if [ -s "$CA" ] && grep -q "BEGIN CERTIFICATE" "$CA"; then
    pass "--ca-out wrote the CA certificate"
else
    fail "--ca-out wrote the CA certificate ($CA)"
fi
"$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
    --topic com.example.app > "$WORK/push-1.out" 2>&1
push_status=$?
if [ "$push_status" -eq 0 ]; then
    pass "richpush push into the TUI is accepted"
else
    fail "richpush push into the TUI is accepted (exit $push_status: $(tr '\n' ' ' < "$WORK/push-1.out"))"
fi
wait_for "the pushed notification arrives in the TUI, named by its token" "APNs push 0123456"
wait_for "the pushed notification arrives with its image" "png 640x480"
receipts=""
for _ in $(seq 50); do
    receipts=$(curl -s --cacert "$CA" "https://127.0.0.1:$PORT/richpush/v1/receipts" 2>&1)
    case "$receipts" in *spring-001*) break ;; esac
    sleep 0.1
done
case "$receipts" in
    *spring-001*) pass "the display receipt reaches the TUI's own endpoint (its CA trusted)" ;;
    *) fail "the display receipt reaches the TUI's own endpoint (its CA trusted): $receipts" ;;
esac
keys Tab
press Enter "the pushed notification's detail opens" "Notification detail"
wait_for "the detail lists the request's topic" "Topic       com.example.app"
wait_for "the detail says the provider token's signature was not verified" "signature not verified"
keys Escape
wait_gone "Esc closes the pushed notification's detail" "Notification detail"
"$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
    --topic com.other.app > "$WORK/push-2.out" 2>&1
push_status=$?
if [ "$push_status" -eq 1 ]; then
    pass "a push for another app's topic is refused to the sender (exit 1)"
else
    fail "a push for another app's topic is refused to the sender (exit $push_status: $(tr '\n' ' ' < "$WORK/push-2.out"))"
fi
wait_for_line "the refused push is listed as rejected with Apple's reason" "rejected — 400 (BadTopic|DeviceTokenNotForTopic|TopicDisallowed)"
FCM_PAYLOAD=$(find_payload fcm-v1-message.json)
if [ -n "$FCM_PAYLOAD" ]; then
    if "$BIN" push "$PAYLOADS/$FCM_PAYLOAD" --to "https://127.0.0.1:$PORT" --cacert "$CA" > "$WORK/push-3.out" 2>&1; then
        pass "an FCM HTTP v1 message pushed into the TUI is accepted"
    else
        fail "an FCM HTTP v1 message pushed into the TUI is accepted ($(tr '\n' ' ' < "$WORK/push-3.out"))"
    fi
    wait_for "the FCM message arrives, named as an FCM push" "FCM push · background"
else
    echo "# skipped the FCM push: fcm-v1-message.json not found under $PAYLOADS"
fi
# A push from the network is delivered on the phone the header shows now, not the command line's.
press F "F turns a Focus on in the listening TUI" "Phone: FOCUS"
"$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
    --topic com.example.app > "$WORK/push-4.out" 2>&1
wait_for "a network push arriving in the Focus the header turned on is held by it" "held: Focus"
press F "F cycles to a Focus that allows the app in the listening TUI" "Phone: FOCUS (app allowed)"
press F "F cycles the Focus off in the listening TUI" "Phone: unlocked"
printf '%s\n' '{"aps":{"alert":{"title":"Slow image","body":"still downloading at q"},"mutable-content":1},' \
    '"fcm_options":{"image":"https://fixtures.richpush.test/cat.png?delay=50s"}}' > "$WORK/slow-push.json"
"$BIN" push "$WORK/slow-push.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" --topic com.example.app \
    > /dev/null 2>&1
wait_for "a push whose image is slow is in flight" "left of 55 s budget"
press q "q exits the listening TUI with status 0 without waiting for the push in flight" "EXIT=0"
if "$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
    > /dev/null 2>&1; then
    fail "after q nothing listens on the port any more"
else
    pass "after q nothing listens on the port any more"
fi

# 17b. --record DIR: the listener records each push; w writes the selected notification in the same form (a
# library payload from its file, a pushed one from its request), and the status line names the file. It replays.
PORT=$(free_port)
CORPUS="$WORK/corpus"
launch --state background --listen "127.0.0.1:$PORT" --ca-out "'$WORK/record-ca.pem'" --record "'$CORPUS'"
wait_for "the recording TUI listens" "listening 127.0.0.1:$PORT"
keys j
keys j
wait_for_line "the library's selection is on the payload with an image" "▶ rich/png-background.json"
press Enter "the library payload to record arrives with its image" "png 640x480"
keys Tab
press w "w records the library payload and the status line says where" "Recorded to $CORPUS/"
"$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$WORK/record-ca.pem" \
    --topic com.example.app > "$WORK/push-record.out" 2>&1
wait_for "the push to record arrives" "APNs push 0123456"
wait_gone "the status line moved on from the first recording" "Recorded to"
keys g
press w "w records the pushed notification too" "Recorded to $CORPUS/"
press q "q exits the recording TUI" "EXIT=0"
recorded=$(find "$CORPUS" -maxdepth 1 -name '*.json' ! -name '*.expect.json' | wc -l)
if [ "$recorded" -eq 3 ]; then
    pass "w wrote the library payload and the push, --record the push (3 payload files)"
else
    fail "w wrote the library payload and the push, --record the push ($recorded payload files: $(ls "$CORPUS" | tr '\n' ' '))"
fi
if "$BIN" replay "$CORPUS" > "$WORK/replay-record.out" 2>&1 && grep -q "3 passed, 0 failed" "$WORK/replay-record.out"; then
    pass "the TUI's recording replays, every result passing"
else
    fail "the TUI's recording replays ($(tr '\n' ' ' < "$WORK/replay-record.out"))"
fi

# 18. Without --ca-out the CA is a temporary file, named in the status line and removed on exit.
launch --state background --listen 127.0.0.1:0
wait_for "port 0 listens on a free port" "listening 127.0.0.1:"
wait_for "the status line names the temporary CA certificate" "CA certificate: "
temporary_ca=$(screen | sed -n 's/.*CA certificate: \([^ )]*\.pem\)).*/\1/p' | head -n 1)
if [ -n "$temporary_ca" ] && [ -f "$temporary_ca" ]; then
    pass "the temporary CA certificate exists while the TUI runs"
else
    fail "the temporary CA certificate exists while the TUI runs (\"$temporary_ca\")"
fi
press q "q exits with status 0 (temporary CA)" "EXIT=0"
if [ -n "$temporary_ca" ] && [ ! -e "$temporary_ca" ]; then
    pass "quitting removed the temporary CA certificate"
else
    fail "quitting removed the temporary CA certificate ($temporary_ca)"
fi

# 19. A busy port is a status-line message, and the TUI runs without listening.
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket,sys,time
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(60)' \
        > "$WORK/busy.port" &
    holder=$!
    deadline=$(($(now_ms) + TIMEOUT * 1000))
    while [ ! -s "$WORK/busy.port" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
    BUSY=$(cat "$WORK/busy.port")
    launch --state background --listen "127.0.0.1:$BUSY"
    wait_for "a busy port is a clear status-line message" "Not listening on 127.0.0.1:$BUSY: Address already in use"
    press c "the TUI still runs without listening" "App state: CLOSED"
    if screen | grep -qF "listening 127.0.0.1:$BUSY"; then
        fail "the header does not claim to listen on the busy port"
    else
        pass "the header does not claim to listen on the busy port"
    fi
    press q "q exits with status 0 (busy port)" "EXIT=0"
    kill "$holder" 2>/dev/null
else
    echo "# skipped the busy-port check: no python3 to hold a port"
fi

# 20. With --auth-key the provider token's signature is verified: a push signed with that key is accepted and
# its detail says so; one signed with a throwaway key is listed as rejected.
if command -v openssl >/dev/null 2>&1 \
    && openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null \
        | openssl pkcs8 -topk8 -nocrypt -out "$WORK/AuthKey_ABC123DEFG.p8" 2>/dev/null; then
    PORT=$(free_port)
    launch --state background --listen "127.0.0.1:$PORT" --ca-out "'$CA'" \
        --auth-key "'$WORK/AuthKey_ABC123DEFG.p8'" --key-id ABC123DEFG --team-id TEAM123456
    wait_for "the TUI with --auth-key listens" "listening 127.0.0.1:$PORT"
    if "$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
        --topic com.example.app --auth-key "$WORK/AuthKey_ABC123DEFG.p8" --key-id ABC123DEFG --team-id TEAM123456 \
        > "$WORK/push-4.out" 2>&1; then
        pass "a push signed with the team's key is accepted"
    else
        fail "a push signed with the team's key is accepted ($(tr '\n' ' ' < "$WORK/push-4.out"))"
    fi
    wait_for "the signed push arrives with its image" "png 640x480"
    keys Tab
    press Enter "the signed push's detail opens" "Notification detail"
    wait_for "the detail says the signature was verified" "signature verified"
    keys Escape
    wait_gone "Esc closes the signed push's detail" "Notification detail"
    "$BIN" push "$LIBRARY/rich/png-background.json" --to "https://127.0.0.1:$PORT" --cacert "$CA" \
        --topic com.example.app > /dev/null 2>&1
    wait_for "a push signed with another key is listed as rejected" "rejected — 403 InvalidProviderToken"
    press q "q exits the TUI with --auth-key with status 0" "EXIT=0"
else
    echo "# skipped the --auth-key check: openssl could not make a P-256 key"
fi

# 18. Images: an animated GIF plays in the detail view at its own delays (the image changes with no key
# pressed) and Space pauses it; a PNG cut short says why it is not drawn; --images none keeps the text-only
# layout.
GIFS="$WORK/gif-payloads"
mkdir -p "$GIFS"
printf '%s\n' '{"aps":{"alert":{"title":"Spinner","body":"An animated GIF"},"mutable-content":1},' \
    '"fcm_options":{"image":"https://fixtures.richpush.test/spinner.gif"}}' > "$GIFS/spinner.json"
printf '%s\n' '{"aps":{"alert":{"title":"Half a poster","body":"Cut short"},"mutable-content":1},' \
    '"fcm_options":{"image":"https://fixtures.richpush.test/cat.png?truncate=1500"}}' > "$GIFS/damaged.json"
# --payloads, the folder's earlier spelling, still works for one release and says so on the status line.
keys -l "clear; $BIN tui --payloads '$GIFS' --fixtures '$PAYLOADS/images' --no-listen; echo EXIT=\$?"
keys Enter
wait_for "the image launch lists its payloads" "Payloads (2)"
wait_for "--payloads is still taken, with a note to move on" "--payloads is deprecated"
press Enter "the PNG cut short is attached" "png 640x480"
press Down "Down reaches the GIF payload" "▶ spinner.json"
press Enter "the GIF payload is delivered with its image" "gif "
keys Tab
press Enter "the GIF's detail opens" "Notification detail"
wait_for_image "the GIF's frame is drawn in colours" 20
first=$(colored_screen)
deadline=$(($(now_ms) + TIMEOUT * 1000))
while [ "$(colored_screen)" = "$first" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.02; done
if [ "$(colored_screen)" != "$first" ]; then
    pass "the GIF plays: its cells change with no key pressed"
else
    fail "the GIF plays: its cells change with no key pressed"
fi
press Space "Space pauses the animation" "Animation paused"
paused=$(colored_screen)
sleep 1
if [ "$(colored_screen)" = "$paused" ]; then
    pass "paused, the frame stays for a second"
else
    fail "paused, the frame stays for a second"
fi
press Space "Space plays it again" "Animation playing"
keys Escape
wait_gone "Esc closes the GIF's detail" "Notification detail"
keys Down
wait_for_line "Down selects the PNG cut short" "▶ [0-9:]{8}  Half a poster"
press Enter "the detail of the PNG cut short says why it is not drawn" "Image not drawn: the PNG data ends early"
press q "q exits the image launch with status 0" "EXIT=0"

keys -l "clear; $BIN tui '$GIFS' --fixtures '$PAYLOADS/images' --no-listen --images none; echo EXIT=\$?"
keys Enter
wait_for "--images none lists its payloads" "Payloads (2)"
press Down "--images none: Down reaches the GIF payload" "▶ spinner.json"
press Enter "--images none delivers the GIF payload" "gif "
keys Tab
press Enter "--images none opens the detail" "Notification detail"
wait_for "--images none shows the attachment's facts" "Frames"
expect_no_image_colors "--images none draws no image cells"
press q "q exits the --images none launch with status 0" "EXIT=0"

# 21. Truecolor: on a direct-colour terminal (TERM=xterm-direct, whose terminfo comes with ncurses-term) the
# image cells are 24-bit colours, and none is brought down to the 256-colour palette.
if infocmp xterm-direct >/dev/null 2>&1; then
    keys -l "clear; TERM=xterm-direct $BIN tui '$GIFS' --fixtures '$PAYLOADS/images' --no-listen; echo EXIT=\$?"
    keys Enter
    wait_for "xterm-direct lists its payloads" "Payloads (2)"
    press Down "xterm-direct: Down reaches the GIF payload" "▶ spinner.json"
    press Enter "xterm-direct delivers the GIF payload" "gif "
    wait_for_image "xterm-direct draws the thumbnail in 24-bit colours" 6 direct_colors
    expect_no_image_colors "xterm-direct draws no 256-colour image cells"
    press q "q exits the xterm-direct launch with status 0" "EXIT=0"
else
    echo "# skipped the truecolor checks: no xterm-direct terminfo (Debian package ncurses-term)"
fi

# 22. A payload written for a team's extension (given.extension) ends in "ext" in the library; without that
# --extension, Enter sends nothing and the status line gives the note replay prints.
TEAM="$WORK/team-payloads"
mkdir -p "$TEAM"
printf '%s\n' '{"aps":{"alert":{"title":"Team only","body":"Written for the team extension"},"mutable-content":1}}' \
    > "$TEAM/team-only.json"
printf '%s\n' '{"given":{"extension":"../team-extension"},"expect":{"style":"plain"}}' > "$TEAM/team-only.expect.json"
keys -l "clear; $BIN tui '$TEAM' --fixtures '$PAYLOADS/images' --no-listen; echo EXIT=\$?"
keys Enter
wait_for_line "a payload written for a team's extension is marked ext in the library" "team-only\.json +ext│"
press Enter "without its --extension, Enter leaves replay's note on the status line" \
    "1 payload written for --extension $WORK/team-extension (given.extension) skipped"
wait_for "and sends nothing" "Notification Center (0)"
press q "q exits the team-extension launch with status 0" "EXIT=0"

# 23. The phone's views (docs/tui.md, "The phone's views"): the detail view draws the presentation's lock screen,
# banner and expanded views as cards, `v` cycles them, and a number key taps a button. With --images none the
# card rows are text only, so each can be read between its borders. A CJK and emoji title is cut at display width
# (two columns a character) and stays inside the card. The categories file lies outside the library.
PHONE="$WORK/phone-payloads"
mkdir -p "$PHONE"
cp "$PAYLOADS/presentation/order-long-body.json" "$PHONE/order-long-body.json"
cp "$PAYLOADS/presentation/shop.categories.json" "$WORK/shop.categories.json"
# Our own CJK + emoji payload (another one may come with the corpus; this one is the test's).
printf '%s\n' '{"aps":{"alert":{"title":"新品上架🎉限時優惠今天開始全館商品八折起😀還有更多驚喜等你來","body":"點擊查看"},"category":"order"}}' \
    > "$PHONE/cjk-title.json"

# card_rows: the rows of the card on screen, between its borders (the detail view's box and padding removed), but
# the rows that only stand for a picture (--images none: "[image]").
card_rows() { screen | sed -n -E 's/^│ │ (.*[^ ])? +│ +│$/\1/p' | sed -E '/^ *\[(image|video|audio)\]$/d'; }
# check_card DESCRIPTION LINES BUTTONS: the open card shows LINES body lines, the last ending in …, and BUTTONS
# numbered buttons.
check_card() {  # DESCRIPTION EXPECTED_BODY_LINES EXPECTED_BUTTONS
    local description=$1 lines=$2 buttons=$3 rows body last count
    rows=$(card_rows)
    # Rows: the header, the title, then the body until a button, the separator, "N more actions" or the end.
    body=$(printf '%s\n' "$rows" | sed -n '3,$p' | sed -E '/^(─+|[0-9] .*|\+[0-9]+ more actions?)$/,$d')
    count=$(printf '%s\n' "$body" | grep -c .)
    last=$(printf '%s\n' "$body" | grep . | tail -n 1 | sed -E 's/ +\[image\]$//')
    if [ "$count" -eq "$lines" ]; then pass "$description: $lines body lines"; else fail "$description: $lines body lines (saw $count)"; fi
    case "$last" in
        *…) pass "$description: the last body line ends in …" ;;
        *) fail "$description: the last body line ends in … (\"$last\")" ;;
    esac
    count=$(printf '%s\n' "$rows" | grep -cE '^[0-9] ')
    if [ "$count" -eq "$buttons" ]; then pass "$description: $buttons numbered buttons"; else fail "$description: $buttons numbered buttons (saw $count)"; fi
}
keys -l "clear; $BIN tui '$PHONE' --fixtures '$PAYLOADS/images' --no-listen --images none --categories '$WORK/shop.categories.json'; echo EXIT=\$?"
keys Enter
wait_for "the phone launch lists its payloads" "Payloads (2)"
press Enter "the CJK title payload is delivered" "Notification Center (1)"
press Down "Down reaches the long-body payload" "▶ order-long-body.json"
press Enter "the long-body payload is delivered rich" "png 640x480"
keys Tab
press Enter "its detail opens on the expanded view" "Expanded · 3/3 · v next"
press v "v shows the lock screen" "Lock screen · 1/3"
check_card "lock screen" 4 0
wait_for "the lock screen says what it has no room for" "+4 more actions"
press v "v shows the banner" "Banner · 2/3"
check_card "banner" 2 2
wait_for_line "the banner's first button" "│ 1 Track"
wait_for_line "the banner's second button, destructive" "│ 2 Cancel order"
press v "v shows the expanded view again" "Expanded · 3/3"
check_card "expanded" 7 4
if colored_screen | grep -qE $'\e\\[[0-9;]*31mCancel order'; then
    pass "the destructive button is drawn in red"
else
    fail "the destructive button is drawn in red"
fi
wait_for "the presentation says how approximate it is" "approximate: Apple documents no limits"
press 9 "a number without a button says so" "No button 9: its buttons are 1-4"
press 3 "3 taps the text button, which asks for the text" "Reply › Message"
keys -l "On my way"
wait_for "the text is typed into the prompt" "Reply › On my way"
keys Enter
wait_for_line "Enter sends it: the detail view shows the app's response" '^│ App received: reply, text "On my way"'
keys Escape
wait_gone "Esc closes the long-body detail" "Notification detail"
keys Down
wait_for_line "Down selects the CJK notification" "▶ [0-9:]{8}  新品上架"
press Enter "the CJK notification's detail opens" "Expanded · 3/3"
title=$(card_rows | sed -n '2p')
case "$title" in
    新品上架*…) pass "the CJK and emoji title is cut with …" ;;
    *) fail "the CJK and emoji title is cut with … (\"$title\")" ;;
esac
# Every row that starts with the card's left border ends with its right border, 46 columns in (the detail view's
# border and padding, then the card's 44): a row whose text ran past the border would not.
card_width_problems=0
card_width_rows=0
while IFS= read -r line; do
    card_width_rows=$((card_width_rows + 1))
    inner=$(printf '%s\n' "$line" | sed -E 's/ *│$//')
    width=$(printf '%s\n' "$inner" | LC_ALL=C.UTF-8 wc -L)
    if ! printf '%s\n' "$inner" | grep -qE '(│|╮|╯)$' || [ "$width" -ne 46 ]; then
        card_width_problems=$((card_width_problems + 1))
        echo "# card row past its border ($width columns): $inner"
    fi
done < <(screen | grep -E '^│ (│|╭|╰)')
if [ "$card_width_rows" -gt 3 ] && [ "$card_width_problems" -eq 0 ]; then
    pass "every row of the card ($card_width_rows), the CJK title's too, ends at the card's right border"
else
    fail "every row of the card, the CJK title's too, ends at the card's right border ($card_width_problems of $card_width_rows rows do not)"
fi
press q "q exits the phone launch with status 0" "EXIT=0"

# 24. The phone's state (docs/tui.md, "The phone's state"): F turns a Focus on from the header and a notification it
# holds is no banner, its row says why; with M the Scheduled Summary holds active notifications (the header counts
# them) while a time-sensitive one (the app has the capability) still gets its banner; D delivers the summary,
# ordered by relevance-score with the highest featured first.
SUMMARY="$WORK/summary-payloads"
mkdir -p "$SUMMARY"
printf '%s\n' '{"aps":{"alert":{"title":"Low relevance","body":"Score 0.2"},"relevance-score":0.2}}' > "$SUMMARY/a-low.json"
printf '%s\n' '{"aps":{"alert":{"title":"High relevance","body":"Score 0.9"},"relevance-score":0.9}}' > "$SUMMARY/b-high.json"
printf '%s\n' '{"aps":{"alert":{"title":"Gate change","body":"Now at B12"},"interruption-level":"time-sensitive"}}' \
    > "$SUMMARY/c-urgent.json"
# expect_absent DESCRIPTION TEXT: passes when the screen does not show TEXT now (after the check before it waited for
# the frame that would show it).
expect_absent() {
    if screen | grep -qF -- "$2"; then fail "$1 (\"$2\" is on screen)"; else pass "$1"; fi
}
keys -l "clear; $BIN tui '$SUMMARY' --fixtures '$PAYLOADS/images' --no-listen --images none --state background --capabilities time-sensitive --silent; echo EXIT=\$?"
keys Enter
wait_for "the phone starts as the command line's flags say" "Phone: SILENT (L/F/M/S/D)"
press S "S puts the ring/silent switch back on ring" "Phone: unlocked (L/F/M/S/D)"
press F "F turns a Focus on from the header" "Phone: FOCUS"
# The header's counts lose "in flight" in the frame the notification arrives in, which a banner would be drawn in (the
# banner would hide the row until it goes).
press Enter "the notification held by the Focus arrives" "1 notification · ? help"
expect_absent "a notification held by the Focus is no banner" "Banner · now"
wait_for "a notification held by the Focus says so in its row" "held: Focus"
press F "F cycles to a Focus that allows the app" "Phone: FOCUS (app allowed)"
press F "F cycles the Focus off" "Phone: unlocked"
press M "M turns the Scheduled Summary on" "Phone: SUMMARY"
press Enter "the low-relevance notification waits in the summary" "Phone: SUMMARY · summary 1"
expect_absent "a notification waiting for the summary is no banner" "Banner · now"
press Down "Down reaches the high-relevance payload" "▶ b-high.json"
press Enter "the header counts two notifications in the summary" "Phone: SUMMARY · summary 2"
expect_absent "neither summary notification is a banner" "Banner · now"
wait_for "their rows say they wait in the summary" "in summary"
press Down "Down reaches the time-sensitive payload" "▶ c-urgent.json"
press Enter "a time-sensitive notification still gets its banner" "Banner · now"
wait_for "it does not wait in the summary" "Phone: SUMMARY · summary 2"
press D "D delivers the summary" "Scheduled Summary · 2 notifications"
wait_gone "the delivered summary is empty" "summary 2"
featured=$(screen | grep -nF "★ High relevance" | cut -d: -f1 | head -n 1)
other=$(screen | grep -nF "· Low relevance" | cut -d: -f1 | head -n 1)
if [ -n "$featured" ] && [ -n "$other" ] && [ "$featured" -lt "$other" ]; then
    pass "the summary features the 0.9 notification first (★), then the 0.2 one"
else
    fail "the summary features the 0.9 notification first (★), then the 0.2 one (lines ${featured:-none}, ${other:-none})"
fi
keys Escape
wait_gone "Esc closes the summary" "Scheduled Summary ·"
wait_for "the rows say they came with the summary" "from summary"
# N: Notification Grouping. By app, the four notifications (none has a thread-id) stack as the app's; off, none do.
press N "N groups notifications by app" "GROUPED BY APP"
wait_for "grouped by app, the notifications are one stack" "+3 more · the app · Enter expands"
press N "N turns grouping off" "NO GROUPING"
wait_gone "with grouping off, nothing is stacked" "+3 more"
press N "N cycles back to automatic grouping" "Phone: SUMMARY (L/F/M/S/D)"
press q "q exits the phone-state launch with status 0" "EXIT=0"

# 25. UNUserNotificationCenter from a team's extension (docs/extension.md, "The notification center"): the chat
# example's second message of a conversation removes the first one's notification, whose row leaves the list, and sets
# the app badge; the status line says both, and the detail view's timeline has the calls. The payloads are the
# repository's (their given.extension names the example's folder).
CHAT="$ROOT/payloads/extensions/chat-replace"
keys -l "clear; $BIN tui '$CHAT' --extension '$ROOT/examples/extensions/chat-replace' --fixtures '$PAYLOADS/images' --no-listen --images none --state background; echo EXIT=\$?"
keys Enter
wait_for "the chat launch lists its three messages" "Payloads (3)"
# The extension is built on first use: a first build may take longer than the other checks' waits.
TIMEOUT_BEFORE=$TIMEOUT
TIMEOUT=$((TIMEOUT * 6))
press Enter "the first message of Ann's conversation is delivered" "Notification Center (1)"
TIMEOUT=$TIMEOUT_BEFORE
wait_for "its extension set the app badge to 1" "set the app badge to 1"
press Down "Down reaches the second message" "▶ message-2.json"
press Enter "the second message's extension removes the first one's notification" \
    "Its extension removed 1 delivered notification (Ann); set the app badge to 1"
wait_for "the removed row has left the list: still one notification" "Notification Center (1)"
wait_for_line "the notification shown is the second message" "I'm at the door|Ann"
press Down "Down reaches Bob's message" "▶ message-3.json"
press Enter "Bob's message, another conversation, removes nothing and counts two conversations" \
    "set the app badge to 2"
wait_for "both conversations are shown" "Notification Center (2)"
press q "q exits the chat launch with status 0" "EXIT=0"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
