#!/usr/bin/env python3
"""Checks the documentation against the repository (issue #42). Run from the repository root:

    python3 Tests/EndToEnd/docs-check.py           # the checks, TAP-like, exit 1 on any failure
    python3 Tests/EndToEnd/docs-check.py --graph   # print the module graph blocks for docs/architecture.md

What it checks:
  - docs/architecture.md's module graph lists exactly the targets of each of the three packages (Package.swift,
    Compatibility/Package.swift, Shared/Package.swift) with their kinds and their target and product
    dependencies, as `swift package dump-package` reports them (no build needed);
  - README.md has at most 350 lines;
  - no page (README.md, docs/*.md) names a path outside the repository;
  - every relative Markdown link in those pages points at a file or folder that exists in the repository;
  - every one-shot command a page shows in a code block (`richpush replay`, `extension check`, `show`, as
    `scripts/richpush`, `richpush` or `.build/debug/richpush`) runs with the built binary ($RICHPUSH_BIN, default
    .build/debug/richpush) and exits 0 (or the status its comment says, "(exit 1)"), or, when the page shows its
    error line below it, fails with that line.
    Commands with placeholders (PATH, MyApp, [options]), servers (`serve`, `tui`, `push`) and the blocks that start a
    server in the background (their flows are the interop and tmux tests') are not run here; --skip-commands leaves
    them all out.

Standard library only. `swift` is looked up on PATH, with /opt/swift/usr/bin added when it exists.
"""

import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.getcwd()
ARCHITECTURE = os.path.join("docs", "architecture.md")
README_MAX_LINES = 350
# The three packages, by the folder given to --package-path; the graph block for each is fenced as
# ```module-graph FOLDER
PACKAGES = [".", "Compatibility", "Shared"]
KINDS = {"regular": "library", "executable": "executable", "test": "test", "system": "system library",
         "plugin": "plugin", "macro": "macro", "binary": "binary"}
# Paths that lie outside the repository (the brief: none is named on any page).
OUTSIDE_PATTERNS = [r"\.\./shared", r"/work/", r"/home/", r"/root/", r"/Users/"]

results = []


def report(ok, description, details=()):
    results.append(ok)
    print(("ok - " if ok else "not ok - ") + description)
    for line in details:
        print("#   " + line)


def swift_executable():
    path = os.environ.get("PATH", "")
    if os.path.isdir("/opt/swift/usr/bin"):
        path = "/opt/swift/usr/bin" + os.pathsep + path
    return shutil.which("swift", path=path)


def dump_package(swift, folder):
    """The package's targets as {name: (kind, [dependency, ...])}; a product of another package is
    written PACKAGE/PRODUCT, a target or a product named alone by its name."""
    out = subprocess.run([swift, "package", "--package-path", folder, "dump-package"],
                         capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"swift package dump-package failed for {folder}: {out.stderr.strip()[:500]}")
    package = json.loads(out.stdout)
    targets = {}
    for target in package["targets"]:
        dependencies = []
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            if kind in ("byName", "target"):
                dependencies.append(value[0])
            elif kind == "product":
                dependencies.append(f"{value[1]}/{value[0]}" if value[1] else value[0])
            else:
                dependencies.append(f"?{kind}:{value}")
        targets[target["name"]] = (KINDS.get(target["type"], target["type"]), dependencies)
    return package["name"], targets


def format_block(folder, name, targets):
    lines = [f"```module-graph {folder}"]
    for target, (kind, dependencies) in targets.items():
        lines.append(f"{target} ({kind}): {', '.join(dependencies) if dependencies else '(none)'}")
    lines.append("```")
    return "\n".join(lines)


LINE = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+) \((?P<kind>[a-z ]+)\): (?P<deps>.*)$")


def documented_graphs(text):
    """{folder: ({target: (kind, [deps])}, [problems])} from the ```module-graph FOLDER blocks."""
    graphs = {}
    for match in re.finditer(r"^```module-graph (\S+)\n(.*?)^```", text, flags=re.M | re.S):
        folder, body = match.group(1), match.group(2)
        targets, problems = {}, []
        for number, line in enumerate(body.splitlines(), 1):
            if not line.strip():
                continue
            parsed = LINE.match(line.strip())
            if not parsed:
                problems.append(f"line {number} of the {folder} block is not `Target (kind): Dep, Dep`: {line!r}")
                continue
            deps = parsed.group("deps").strip()
            dependencies = [] if deps == "(none)" else [d.strip() for d in deps.split(",") if d.strip()]
            if parsed.group("name") in targets:
                problems.append(f"{parsed.group('name')} is listed twice in the {folder} block")
            targets[parsed.group("name")] = (parsed.group("kind"), dependencies)
        if folder in graphs:
            problems.append(f"two blocks for {folder}")
        graphs[folder] = (targets, problems)
    return graphs


def compare(actual, documented, manifest):
    problems = []
    for target in actual:
        if target not in documented:
            problems.append(f"target {target} is in {manifest} but not in the graph")
    for target in documented:
        if target not in actual:
            problems.append(f"target {target} is in the graph but not in {manifest}")
    for target, (kind, dependencies) in actual.items():
        if target not in documented:
            continue
        doc_kind, doc_dependencies = documented[target]
        if kind != doc_kind:
            problems.append(f"{target} is a {kind} target, the graph says {doc_kind}")
        missing = sorted(set(dependencies) - set(doc_dependencies))
        extra = sorted(set(doc_dependencies) - set(dependencies))
        if missing:
            problems.append(f"{target} depends on {', '.join(missing)}, which the graph does not list")
        if extra:
            problems.append(f"{target}: the graph lists {', '.join(extra)}, which {manifest} does not declare")
        if len(set(doc_dependencies)) != len(doc_dependencies):
            problems.append(f"{target}: a dependency is listed twice in the graph")
    return problems


def check_graph(swift):
    try:
        text = open(ARCHITECTURE, encoding="utf-8").read()
    except OSError as error:
        report(False, f"{ARCHITECTURE} can be read", [str(error)])
        return
    graphs = documented_graphs(text)
    for folder in PACKAGES:
        manifest = os.path.normpath(os.path.join(folder, "Package.swift"))
        if swift is None:
            report(False, f"{manifest}: swift found to dump the package", ["no swift on PATH or in /opt/swift/usr/bin"])
            continue
        try:
            name, actual = dump_package(swift, folder)
        except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as error:
            report(False, f"{manifest}: swift package dump-package", [str(error)])
            continue
        if folder not in graphs:
            report(False, f"{ARCHITECTURE} has a ```module-graph {folder} block for {manifest} ({name})",
                   ["print the blocks with: python3 Tests/EndToEnd/docs-check.py --graph"])
            continue
        documented, problems = graphs[folder]
        problems = problems + compare(actual, documented, manifest)
        report(not problems,
               f"{ARCHITECTURE} lists the {len(actual)} targets of {manifest} ({name}) and their dependencies",
               problems)
    for folder in graphs:
        if folder not in PACKAGES:
            report(False, f"{ARCHITECTURE}: the block ```module-graph {folder} names a known package",
                   [f"known: {', '.join(PACKAGES)}"])


def pages():
    names = ["README.md"]
    if os.path.isdir("docs"):
        names += sorted(os.path.join("docs", n) for n in os.listdir("docs") if n.endswith(".md"))
    return names


def check_readme_length():
    try:
        count = len(open("README.md", encoding="utf-8").read().splitlines())
    except OSError as error:
        report(False, "README.md can be read", [str(error)])
        return
    report(count <= README_MAX_LINES, f"README.md has {count} lines (at most {README_MAX_LINES})")


def check_outside_paths():
    found = []
    for page in pages():
        for number, line in enumerate(open(page, encoding="utf-8").read().splitlines(), 1):
            for pattern in OUTSIDE_PATTERNS:
                if re.search(pattern, line):
                    found.append(f"{page}:{number}: {line.strip()[:120]}")
    report(not found, "no page names a path outside the repository (../shared, /work/, home folders)", found)


def without_code(text):
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def check_links():
    broken, count = [], 0
    root = os.path.realpath(ROOT)
    for page in pages():
        text = without_code(open(page, encoding="utf-8").read())
        for match in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I) or target.startswith("#"):
                continue
            count += 1
            path = target.split("#", 1)[0]
            resolved = os.path.realpath(os.path.join(os.path.dirname(page), path))
            if not (resolved == root or resolved.startswith(root + os.sep)):
                broken.append(f"{page}: {target} leads outside the repository")
            elif not os.path.exists(resolved):
                broken.append(f"{page}: {target} does not exist")
    report(not broken, f"every relative link in README.md and docs/*.md leads to a file that exists ({count} links)",
           broken)


ONE_SHOT = re.compile(r"^(?:\$ )?(?:scripts/richpush|richpush|\.build/debug/richpush) (replay|extension check|show) ")
PLACEHOLDERS = re.compile(r"\[|\bPATH\b|MyApp|IMAGE_FILE|\bDIR\b|\.\.\.")


def documented_commands():
    """(page, command, documented error line or None) for each one-shot command in a fenced block."""
    found = []
    for page in pages():
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
            lines = block.split("\n")
            # A block that starts a server in the background is a flow (serve, push, replay what it recorded), which
            # the interop and tmux tests run; its commands need the server.
            if any(line.split("  #")[0].rstrip().endswith("&") for line in lines):
                continue
            index = 0
            while index < len(lines):
                line = lines[index]
                # A command continued with a backslash is one command.
                while line.rstrip().endswith("\\") and index + 1 < len(lines):
                    index += 1
                    line = line.rstrip()[:-1] + " " + lines[index].strip()
                command, _, comment = line.partition("  #")
                command = command.strip()
                # A comment may say the command's exit status: "... (exit 1)".
                said = re.search(r"\(exit (\d+)\)", comment)
                if ONE_SHOT.match(command) and not PLACEHOLDERS.search(command) and not command.endswith("&"):
                    command = re.sub(r"^\$ ", "", command)
                    following = lines[index + 1].strip() if index + 1 < len(lines) else ""
                    subcommand = ONE_SHOT.match(command).group(1).split()[0]
                    error = following if following.startswith(f"richpush {subcommand}: ") else None
                    found.append((page, command, error, int(said.group(1)) if said else 0))
                index += 1
    return found


def check_commands():
    binary = os.path.abspath(os.environ.get("RICHPUSH_BIN", os.path.join(".build", "debug", "richpush")))
    if not os.access(binary, os.X_OK):
        report(False, f"the documented commands run ({binary} is not built)")
        return
    # Run where the pages' relative paths resolve, in a folder of their own so outputs (report.html, shots/) land
    # there and not in the clone.
    import tempfile
    with tempfile.TemporaryDirectory(prefix="richpush-docs-") as work:
        for folder in ("payloads", "examples"):
            os.symlink(os.path.join(ROOT, folder), os.path.join(work, folder))
        seen = set()
        for page, command, error, status in documented_commands():
            if command in seen:
                continue
            seen.add(command)
            words = command.split()
            argv = [binary] + [word.strip("'\"") for word in words[1:]]
            try:
                run = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                report(False, f"{page}: `{command}` ends", ["it ran for 10 minutes"])
                continue
            output = (run.stdout + run.stderr).strip().splitlines()
            if error is None:
                report(run.returncode == status, f"{page}: `{command}` exits {status}",
                       [] if run.returncode == status else [f"exit {run.returncode}"] + output[-5:])
            else:
                shown = error[:60]
                ok = 0 < run.returncode < 128 and any(shown in line for line in output)
                report(ok, f"{page}: `{command}` fails with the line the page shows",
                       [] if ok else [f"exit {run.returncode}, expected a line starting {shown!r}"] + output[-5:])


def main():
    swift = swift_executable()
    if sys.argv[1:] == ["--graph"]:
        for folder in PACKAGES:
            name, targets = dump_package(swift, folder)
            print(f"{name} ({os.path.normpath(os.path.join(folder, 'Package.swift'))}):\n")
            print(format_block(folder, name, targets) + "\n")
        return 0
    arguments = sys.argv[1:]
    skip_commands = "--skip-commands" in arguments
    if [argument for argument in arguments if argument != "--skip-commands"]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    check_graph(swift)
    check_readme_length()
    check_outside_paths()
    check_links()
    if not skip_commands:
        check_commands()
    passed = sum(1 for ok in results if ok)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
