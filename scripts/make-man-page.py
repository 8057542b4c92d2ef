#!/usr/bin/env python3
"""Writes richpush(1) in man(7) format from the argument parser's own description of the command line
(`richpush --experimental-dump-help`), so the man page says what --help says. Usage: make-man-page.py RICHPUSH > richpush.1"""
import datetime
import json
import subprocess
import sys


def roff(text):
    """Text as roff: backslashes and leading dots or quotes escaped."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def synopsis(name, arguments):
    parts = []
    for argument in arguments:
        if not argument.get("shouldDisplay", True):
            continue
        names = argument.get("names") or []
        long = next((n["name"] for n in names if n["kind"] == "long"), None)
        short = next((n["name"] for n in names if n["kind"] == "short"), None)
        value = argument.get("valueName", "")
        if argument["kind"] == "positional":
            text = f"\\fI{value}\\fR" + ("..." if argument.get("isRepeating") else "")
        else:
            flag = f"--{long}" if long else f"-{short}"
            text = f"\\fB{roff(flag)}\\fR" + (f" \\fI{value}\\fR" if argument["kind"] == "option" else "")
        parts.append(f"[{text}]" if argument.get("isOptional") else text)
    return f"\\fB{name}\\fR " + " ".join(parts)


def options(arguments):
    out = []
    for argument in arguments:
        if not argument.get("shouldDisplay", True):
            continue
        names = argument.get("names") or []
        flags = ", ".join(("--" if n["kind"] == "long" else "-") + n["name"] for n in names)
        value = argument.get("valueName", "")
        label = flags or value
        if argument["kind"] == "option":
            label += f" {value}"
        out.append(f".TP\n\\fB{roff(label)}\\fR\n{roff(argument.get('abstract', ''))}")
    return "\n".join(out)


def main():
    tool = json.loads(subprocess.run([sys.argv[1], "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)["command"]
    today = datetime.date.today().isoformat()
    page = [f'.TH RICHPUSH 1 "{today}" "richpush" "User Commands"', ".SH NAME",
            f"richpush \\- {roff(tool.get('abstract', ''))}", ".SH SYNOPSIS", synopsis("richpush", tool.get("arguments", []))]
    for sub in tool.get("subcommands", []):
        if sub["commandName"] != "help":
            page.append(".br\n" + synopsis("richpush " + sub["commandName"], sub.get("arguments", [])))
    page += [".SH DESCRIPTION", roff(tool.get("discussion", ""))]
    for sub in tool.get("subcommands", []):
        if sub["commandName"] == "help":
            continue
        page += [f'.SH "richpush {sub["commandName"]}"', roff(sub.get("abstract", ""))]
        if sub.get("discussion"):
            page += [".PP", roff(sub["discussion"])]
        page.append(options(sub.get("arguments", [])))
        for nested in sub.get("subcommands", []):
            page += [f'.SS "richpush {sub["commandName"]} {nested["commandName"]}"', roff(nested.get("abstract", "")),
                     options(nested.get("arguments", []))]
    page += [".SH FILES", "PREFIX/share/richpush: the fixture images, the example payloads and the compatibility SDK.",
             ".SH EXIT STATUS",
             "0 success; 1 a check failed; 2 usage, I/O or start-up errors; 128+N stopped by signal N."]
    print("\n".join(part for part in page if part))


if __name__ == "__main__":
    main()
