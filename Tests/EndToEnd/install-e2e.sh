#!/usr/bin/env bash
# scripts/install end to end: install into a temporary prefix (the debug build, to reuse the test build), hide the
# clone (a private mount namespace with an empty folder over it), and from another folder replay payloads, build an
# example extension against the installed SDK and run it; check completions, the man page and a stale SDK's refusal;
# then scripts/uninstall and find nothing left. Prints ok/not ok lines and a summary; exit 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d)
prefix=$work/prefix
passed=0
failed=0
check() { # check DESCRIPTION COMMAND...
    local description=$1
    shift
    if "$@" >"$work/out" 2>&1; then
        echo "ok - $description"
        passed=$((passed + 1))
    else
        echo "not ok - $description"
        sed 's/^/    /' "$work/out" | tail -20
        failed=$((failed + 1))
    fi
}
# Runs a shell command where the clone is an empty folder, from $work/elsewhere.
hidden() {
    unshare -Urm /bin/sh -c "mount -t tmpfs none '$root' && cd '$work/elsewhere' && $1"
}
mkdir -p "$work/elsewhere/my-payloads"
cp payloads/rich/*.json "$work/elsewhere/my-payloads/"
cp -r examples/extensions/blueprint "$work/elsewhere/ext"
export XDG_CACHE_HOME=$work/cache

check "scripts/install into a new prefix" env RICHPUSH_INSTALL_CONFIGURATION=debug scripts/install "$prefix"
check "the clone is hidden where the installed richpush runs" hidden "test ! -e '$root/Package.swift'"
check "replay of a folder of payloads, with the installed fixture images" \
    hidden "'$prefix/bin/richpush' replay my-payloads | grep -q ' passed, 0 failed'"
check "replay of no payloads is not green" hidden "mkdir -p empty && ! '$prefix/bin/richpush' replay empty 2>/dev/null"
check "extension check of the blueprint against the installed SDK" \
    hidden "'$prefix/bin/richpush' extension check ext | grep -q 'builds'"
# The modules the compiler reads name nothing of the clone (the library's own assertion messages still carry
# the file names it was compiled from, as any C or Swift binary's #file strings do).
check "no installed SDK module names the build tree" sh -c "! grep -rlF '$root/' '$prefix/share/richpush/sdk/Modules'"
# The compiler that builds a team's extension against the installed SDK opens nothing of the (hidden) clone.
check "the installed SDK leads the compiler to no path of the build tree" hidden "rm -rf '$XDG_CACHE_HOME' && strace -f -qq -e trace=%file -o '$work/trace' '$prefix/bin/richpush' extension check ext >/dev/null 2>&1 && ! grep -F '\"$root/' '$work/trace'"
check "the blueprint's own payloads through it" \
    hidden "'$prefix/bin/richpush' replay '$prefix/share/richpush/payloads/extensions/blueprint' --extension '$prefix/share/richpush/examples/extensions/blueprint' | grep -q '7 passed, 0 failed'"
check "bash, zsh and fish completions" test -s "$prefix/share/bash-completion/completions/richpush" -a \
    -s "$prefix/share/zsh/site-functions/_richpush" -a -s "$prefix/share/fish/vendor_completions.d/richpush.fish"
check "the man page names every subcommand" sh -c "head -1 '$prefix/share/man/man1/richpush.1' | grep -q '^.TH RICHPUSH 1' && grep -q 'richpush replay' '$prefix/share/man/man1/richpush.1' && grep -q 'richpush extension check' '$prefix/share/man/man1/richpush.1'"
# An SDK built by another compiler is refused in one line, not taken for the team's build error.
stamp=$prefix/share/richpush/sdk/richpush-sdk.stamp
cp "$stamp" "$work/stamp"
printf 'compiler: Swift version 5.9\nhost protocol: 2\n' >"$stamp"
rm -rf "$XDG_CACHE_HOME"
check "an installed SDK from another compiler is refused in one line" \
    hidden "'$prefix/bin/richpush' extension check ext 2>&1 | grep -q 'was built for compiler: Swift version 5.9'"
cp "$work/stamp" "$stamp"
check "scripts/uninstall" scripts/uninstall "$prefix"
check "nothing installed is left" test ! -e "$prefix"
rm -rf "$work"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
