#!/usr/bin/env python3
"""End-to-end test of `richpush replay --format html` in a real browser.

Replays a payload folder into an HTML report, opens it in headless Chromium and checks, through the
Chrome DevTools Protocol, what a person would see: one card per notification, a decoded image on every rich
card and none on the others, filters that hide and show cards, and that hostile payload text executes
nothing and the page requests nothing.

Then replays payloads/presentation (a category with four buttons, a 304-character body, a long CJK and emoji
title) and checks the phone views as the browser lays them out: the lock screen body clamped to the model's
line count, the banner's and the expanded view's buttons as many as the model lists, the CJK title cut with an
ellipsis, a thread's notifications stacked with "N more"; and `replay --screenshots` writes a PNG per notification, view and scheme, phone-wide and not blank.
Then replays a copy of payloads/phone with `--summary on` (two payloads given a relevance-score) and checks the
Scheduled Summary card: the held notifications by relevance-score, the highest first and featured.
--screenshot FILE also saves the presentation report as a picture (the README's docs/html-report.png).

    python3 Tests/EndToEnd/html-report-e2e.py                      # after `swift build`
    python3 Tests/EndToEnd/html-report-e2e.py --screenshot docs/html-report.png

Environment: RICHPUSH_BIN (default .build/debug/richpush), RICHPUSH_E2E_PAYLOADS (default payloads),
CHROMIUM (default: chromium on the PATH). Prints one line per check and "N passed, N failed"; exits 1 when a
check failed, 2 when the browser or the binary cannot be started.
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("RICHPUSH_BIN", os.path.join(ROOT, ".build/debug/richpush"))
PAYLOADS = os.environ.get("RICHPUSH_E2E_PAYLOADS", "payloads")
HOSTILE = "hostile/markup-in-every-field.json"
PRESENTATION = os.environ.get("RICHPUSH_E2E_PRESENTATION", "payloads/presentation")
# replay --screenshots draws each CSS pixel as 2 (ReplayScreenshots.scale) of a 390-pixel phone.
SHOT_WIDTH = 390 * 2

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name}" + (f": {detail}" if detail else ""))


class DevTools:
    """A minimal WebSocket client (RFC 6455, text frames, client masking) speaking the DevTools protocol."""

    def __init__(self, url, deadline=30):
        host_port, path = url[len("ws://"):].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=deadline)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            response += chunk
        if b" 101 " not in response.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"DevTools refused the WebSocket: {response[:200]!r}")
        self.buffer = response.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0
        self.events = []

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise RuntimeError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):  # ping/pong: not used by DevTools
                continue
            message += payload
            if first & 0x80:
                return json.loads(message.decode())

    def send(self, method, **params):
        self.next_id += 1
        body = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        header = bytes([0x81])
        if len(body) < 126:
            header += bytes([0x80 | len(body)])
        elif len(body) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(body))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(body))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(body))
        self.sock.sendall(header + mask + masked)
        while True:
            message = self._receive()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method, deadline=30):
        end = time.time() + deadline
        while time.time() < end:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(index)
            self.events.append(self._receive())
        raise RuntimeError(f"no {method} within {deadline} s")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


def png_size(path):
    with open(path, "rb") as handle:
        head = handle.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def enumerated_presented(results):
    return [(index, result) for index, result in enumerate(results) if result.get("presentation")]


def phone_checks(tools, work, env, screenshot):
    """The phone views of payloads/presentation, laid out by the browser, and replay --screenshots."""
    report = os.path.join(work, "phone.html")
    results = os.path.join(work, "phone.json")
    shots = os.path.join(work, "shots")
    for args in (["--format", "html", "--output", report, "--screenshots", shots],
                 ["--format", "json", "--output", results]):
        run = subprocess.run([BIN, "replay", PRESENTATION, *args], cwd=ROOT, env=env, capture_output=True, text=True)
        check(f"replay {PRESENTATION} {' '.join(args[:2])}{' --screenshots' if shots in args else ''} succeeds",
              run.returncode == 0, run.stderr.strip()[-300:])
    with open(results, encoding="utf-8") as handle:
        expected = json.load(handle)
    url = "file://" + report
    tools.send("Emulation.setDeviceMetricsOverride", width=1300, height=1400, deviceScaleFactor=1, mobile=False)
    tools.send("Page.navigate", url=url)
    tools.wait_for("Page.loadEventFired")

    def index_of(name):
        return next((i for i, r in enumerate(expected) if r.get("file", "").endswith("/" + name)), None)

    def views(index):
        return ((expected[index].get("presentation") or {}).get("views") or {}) if index is not None else {}

    def element(index, selector):
        # The card scrolled into view first: cards skip their layout while off screen (content-visibility).
        return (f"(() => {{ const c = document.getElementById('n{index}'); c.scrollIntoView();"
                f" return c.querySelector({json.dumps(selector)}); }})()")

    order = index_of("order-long-body.json")
    body_lines = views(order).get("lockScreen", {}).get("body", {}).get("maxLines")
    box = tools.evaluate(
        f"(() => {{ const e = {element(order, 'figure.pv-lockScreen .pv-body')}; if (!e) return null;"
        " const s = getComputedStyle(e); return {height: e.getBoundingClientRect().height,"
        " line: parseFloat(s.lineHeight), scroll: e.scrollHeight, client: e.clientHeight}; })()")
    check("the lock screen body is clamped to the model's lines in the browser",
          order is not None and body_lines == 4 and box is not None
          and abs(box["height"] - body_lines * box["line"]) <= 2 and box["scroll"] > box["client"] + 1,
          f"maxLines {body_lines}, box {box}")
    for kind in ("banner", "expanded"):
        wanted = len(views(order).get(kind, {}).get("actions", []))
        shown = tools.evaluate(
            f"(() => {{ {element(order, 'article')}; return [...document.querySelectorAll("
            f"'#n{order} figure.pv-{kind} .pv-action')].filter(b => b.offsetParent !== null"
            " && b.getBoundingClientRect().height > 20).length; })()")
        check(f"the {kind} shows the model's {wanted} buttons", shown == wanted and wanted == {"banner": 2, "expanded": 4}[kind],
              f"{shown} shown, {wanted} in the model")
    red = tools.evaluate(
        f"(() => {{ {element(order, 'article')}; const b = document.querySelector("
        f"'#n{order} figure.pv-expanded .pv-action[data-action=cancel]'); if (!b) return null;"
        " const c = getComputedStyle(b).color.match(/\\d+/g).map(Number); return c[0] > 150 && c[1] < 100; })()")
    check("the destructive button is red", red is True)

    cjk = index_of("cjk-emoji-title.json")
    truncated = views(cjk).get("lockScreen", {}).get("title", {}).get("truncated")
    for kind in ("lockScreen", "banner", "expanded"):
        cut = tools.evaluate(
            f"(() => {{ const e = {element(cjk, 'figure.pv-' + kind + ' .pv-title')}; if (!e) return null;"
            " const s = getComputedStyle(e); return {overflow: s.textOverflow, scroll: e.scrollWidth,"
            " client: e.clientWidth, height: e.getBoundingClientRect().height, line: parseFloat(s.lineHeight)}; })()")
        check(f"the CJK and emoji title is cut with an ellipsis on one line ({kind})",
              truncated is True and cut is not None and cut["overflow"] == "ellipsis"
              and cut["scroll"] > cut["client"] and cut["height"] <= cut["line"] + 2, f"model {truncated}, box {cut}")

    # Notifications of one thread are also drawn stacked, as the lock screen groups them, with "N more".
    threads = {}
    for index, result in enumerated_presented(expected):
        if result.get("threadID"):
            threads.setdefault(result["threadID"], []).append(index)
    stacked = {thread: members for thread, members in threads.items() if len(members) > 1}
    stacks = tools.evaluate(
        "[...document.querySelectorAll('section.thread-stack')].map(s => ({more: s.querySelector('.ts-more').textContent,"
        " links: [...s.querySelectorAll('.ts-list a')].map(a => a.getAttribute('href')),"
        " top: s.querySelectorAll('figure.pv-lockScreen .pv-title').length,"
        " cards: [...s.querySelectorAll('.ts-list a')].every(a => document.querySelector(a.getAttribute('href'))"
        " && document.querySelector(a.getAttribute('href')).tagName == 'ARTICLE')}))")
    wanted = [{"more": f"{len(m) - 1} more", "links": [f"#n{i}" for i in m], "top": 1, "cards": True}
              for m in stacked.values()]
    check("a thread's notifications are stacked with \"N more\" and a link to each card",
          stacked and stacks == wanted, f"{stacks} for threads {stacked}")

    if screenshot:
        tools.evaluate("window.scrollTo(0, 0)")
        shot = tools.send("Page.captureScreenshot", format="png")
        with open(screenshot, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))
        print(f"screenshot: {screenshot}")

    # replay --screenshots: a PNG per notification, view and scheme, phone-wide, not blank.
    missing, wrong, blank = [], [], []
    tools.send("Page.navigate", url="about:blank")
    tools.wait_for("Page.loadEventFired")
    names = []
    for result in expected:
        if not result.get("presentation"):
            continue
        base = os.path.basename(result["file"])[: -len(".json")]
        for kind in result["presentation"]["views"]:
            names += [f"{base}.{kind}.png", f"{base}.{kind}-dark.png"]
    for name in names:
        path = os.path.join(shots, name)
        size = png_size(path) if os.path.isfile(path) else None
        if size is None:
            missing.append(name)
            continue
        if size[0] != SHOT_WIDTH or size[1] < 200:
            wrong.append(f"{name} {size}")
        with open(path, "rb") as handle:
            data = base64.b64encode(handle.read()).decode()
        colours = tools.evaluate(
            "new Promise(done => { const i = new Image(); i.onload = () => { const c = document.createElement('canvas');"
            " c.width = i.width; c.height = i.height; const x = c.getContext('2d'); x.drawImage(i, 0, 0);"
            " const d = x.getImageData(0, 0, i.width, i.height).data; const seen = new Set();"
            " for (let p = 0; p < d.length; p += 4 * 7) seen.add((d[p] << 16) | (d[p + 1] << 8) | d[p + 2]);"
            " done(seen.size); }; i.onerror = () => done(0); i.src = 'data:image/png;base64," + data + "'; })")
        if colours < 200:
            blank.append(f"{name} ({colours} colours)")
    on_disk = sorted(os.listdir(shots)) if os.path.isdir(shots) else []
    check("replay --screenshots wrote a PNG per notification, view and scheme",
          names and not missing and sorted(names) == on_disk, f"missing {missing[:4]}, on disk {on_disk[:8]}")
    check(f"each screenshot is {SHOT_WIDTH} pixels wide (a 390-point phone at 2x)", names and not wrong, ", ".join(wrong[:4]))
    check("no screenshot is blank (many distinct colours)", names and not blank, ", ".join(blank[:4]))
    dark_differs = []
    for name in names:
        if name.endswith("-dark.png"):
            continue
        light_path = os.path.join(shots, name)
        dark_path = light_path[: -len(".png")] + "-dark.png"
        if os.path.isfile(light_path) and os.path.isfile(dark_path):
            with open(light_path, "rb") as a, open(dark_path, "rb") as b:
                dark_differs.append(a.read() != b.read())
    check("each dark screenshot differs from its light one", dark_differs and all(dark_differs))


def summary_checks(tools, work, env):
    """A `--summary on` replay of payloads/phone, two of its payloads given a relevance-score (in a copy): the
    report's Scheduled Summary card lists the notifications waiting for it, the highest relevance-score first and
    featured."""
    folder = os.path.join(work, "phone-summary")
    os.makedirs(folder)
    source = os.path.join(ROOT, "payloads/phone")
    names = sorted(n for n in os.listdir(source) if n.endswith(".json") and not n.endswith(".expect.json"))
    scores = {"summary-arg-ignored.json": 0.9, "misspelt-level.json": 0.4}
    for name in names:
        with open(os.path.join(source, name), encoding="utf-8") as handle:
            payload = json.load(handle)
        if name in scores:
            payload["aps"]["relevance-score"] = scores[name]
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            json.dump(payload, handle)
    report = os.path.join(work, "summary.html")
    results = os.path.join(work, "summary.json")
    for args in (["--format", "html", "--output", report], ["--format", "json", "--output", results]):
        run = subprocess.run([BIN, "replay", folder, "--summary", "on", *args], cwd=ROOT, env=env,
                             capture_output=True, text=True)
        check(f"replay payloads/phone (copy) --summary on {args[1]} succeeds", run.returncode == 0,
              run.stderr.strip()[-300:])
    with open(results, encoding="utf-8") as handle:
        expected = json.load(handle)
    held = [(index, r) for index, r in enumerate(expected)
            if (r.get("presentation") or {}).get("delivery") == "scheduledSummary"]
    # Highest relevance-score first, ties in report order, no score as 0.
    ordered = sorted(held, key=lambda pair: (-(pair[1].get("relevanceScore") or 0), pair[0]))
    tools.send("Page.navigate", url="file://" + report)
    tools.wait_for("Page.loadEventFired")
    card = tools.evaluate(
        "(() => { const s = document.querySelector('section.ss-card'); if (!s) return null;"
        " const items = [...s.querySelectorAll('li.ss-item')]; return {links: items.map(i =>"
        " i.querySelector('a').getAttribute('href')), featured: items.map(i => i.classList.contains('featured')),"
        " sizes: items.map(i => parseFloat(getComputedStyle(i).fontSize)),"
        " target: items.length > 0 && document.querySelector(items[0].querySelector('a').getAttribute('href'))"
        " .tagName}; })()")
    top = ordered[0][1]["file"] if ordered else None
    check("the Scheduled Summary card lists the held notifications, highest relevance-score first",
          card is not None and len(held) > 1 and card["links"] == [f"#n{i}" for i, _ in ordered],
          f"{card} for {[(i, r.get('relevanceScore')) for i, r in ordered]}")
    check("its first item is featured (marked, larger) and is the highest relevance-score payload",
          card is not None and top is not None and top.endswith("/summary-arg-ignored.json")
          and card["links"][:1] == [f"#n{ordered[0][0]}"] and card["featured"][:1] == [True] and not any(card["featured"][1:])
          and card["sizes"][0] > max(card["sizes"][1:] or [0]) and card["target"] == "ARTICLE",
          f"top {top}, {card}")


def main():
    screenshot = None
    if len(sys.argv) == 3 and sys.argv[1] == "--screenshot":
        screenshot = os.path.abspath(sys.argv[2])
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("html-report-e2e: chromium is not installed (scripts/install-system-packages test installs it)")
        return 2
    work = tempfile.mkdtemp(prefix="richpush-html-e2e.")
    browser = None
    try:
        report = os.path.join(work, "report.html")
        results = os.path.join(work, "results.json")
        env = dict(os.environ, LC_ALL="C.UTF-8")
        for args in (["--format", "html", "--output", report], ["--format", "json", "--output", results]):
            run = subprocess.run([BIN, "replay", PAYLOADS, *args], cwd=ROOT, env=env, capture_output=True, text=True)
            if run.returncode not in (0, 1):
                print(f"html-report-e2e: richpush replay failed ({run.returncode}): {run.stderr.strip()}")
                return 2
        with open(results, encoding="utf-8") as handle:
            expected = json.load(handle)
        with open(report, "rb") as handle:
            size = len(handle.read())
        print(f"report: {report} ({size} bytes, {len(expected)} notifications)")

        profile = os.path.join(work, "profile")
        browser = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=900,1400", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(profile, "DevToolsActivePort")
        end = time.time() + 30
        while not os.path.exists(port_file) and time.time() < end and browser.poll() is None:
            time.sleep(0.05)
        if not os.path.exists(port_file):
            print("html-report-e2e: chromium did not open its DevTools port")
            return 2
        with open(port_file) as handle:
            port = handle.read().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            pages = [target for target in json.load(answer) if target["type"] == "page"]
        tools = DevTools(pages[0]["webSocketDebuggerUrl"])
        for domain in ("Page", "Network", "Runtime", "Log"):
            tools.send(f"{domain}.enable")
        url = "file://" + report
        tools.send("Page.navigate", url=url)
        tools.wait_for("Page.loadEventFired")

        # What the page asked for while loading: the document itself and data: images, nothing else.
        requests = [e["params"]["request"]["url"] for e in tools.events if e.get("method") == "Network.requestWillBeSent"]
        outside = [u for u in requests if u != url and not u.startswith("data:")]
        check("the report requests nothing but itself", not outside, ", ".join(outside[:5]))
        blocked = [e["params"]["entry"]["text"] for e in tools.events
                   if e.get("method") == "Log.entryAdded" and "Content Security Policy" in e["params"]["entry"]["text"]]
        check("nothing tried to run or load against the Content-Security-Policy", not blocked, "; ".join(blocked[:3]))

        cards = tools.evaluate("document.querySelectorAll('article.card').length")
        check("one card per notification", cards == len(expected), f"{cards} cards, {len(expected)} results")

        rich = [r for r in expected if r.get("style") == "rich"]
        images = tools.evaluate(
            "Promise.all([...document.querySelectorAll('article.outcome-rich img.media')]"
            ".map(i => i.decode().then(() => i.naturalWidth, () => 0)))")
        # payloads/damaged holds rich results whose image the codecs could not decode (decoded: false): the phone
        # draws no picture for them, so their cards show the placeholder and say why instead of a broken image.
        decodable = [r for r in rich if (r.get("attachment") or {}).get("decoded") is not False]
        damaged = len(rich) - len(decodable)
        check("every rich card whose image decodes shows it decoded",
              len(images) == len(decodable) and all(w > 0 for w in images) and decodable,
              f"{len(images)} images for {len(decodable)} decodable rich results, widths {images[:8]}")
        placeholders = tools.evaluate(
            "[...document.querySelectorAll('article.outcome-rich')].filter(c => c.querySelector('.media.missing')"
            " && /The image is not shown: the \\w+ (data ends early|is \\d+x\\d+)/.test(c.textContent)).length")
        check("a rich card whose image does not decode shows the placeholder and the codec's sentence",
              damaged > 0 and placeholders == damaged, f"{placeholders} placeholders for {damaged} undecodable images")
        others = tools.evaluate("document.querySelectorAll('article.card:not(.outcome-rich) img').length")
        check("plain, silent and rejected cards show no image", others == 0, f"{others} images")

        def visible():
            return tools.evaluate(
                "[...document.querySelectorAll('article.card')].filter(c => c.offsetParent !== null).length")

        def click(label):
            tools.evaluate(f"document.querySelector('label[for={label}]').click()")

        click("o-rich")
        check("the Rich filter shows the rich cards only", visible() == len(rich), f"{visible()} visible")
        click("s-foreground")
        plain_foreground = [r for r in expected if r.get("style") == "plain" and r.get("appState") == "foreground"]
        click("o-plain")
        check("Plain + Foreground shows the plain foreground cards", visible() == len(plain_foreground),
              f"{visible()} visible, {len(plain_foreground)} expected")
        click("o-all")
        click("s-all")
        check("All + Any state shows every card again", visible() == len(expected), f"{visible()} visible")

        hostile_file = os.path.join(PAYLOADS, HOSTILE)
        hostile = [r for r in expected if r.get("file") == hostile_file]
        check("the corpus has the hostile payload", len(hostile) == 1, hostile_file)
        check("no script element exists", tools.evaluate("document.scripts.length") == 0)
        check("no element carries an event-handler attribute", not tools.evaluate(
            "[...document.querySelectorAll('*')].some(e => [...e.attributes].some(a => a.name.startsWith('on')))"))
        check("no hostile script ran", tools.evaluate("typeof window.__pwned") == "undefined")
        check("no javascript: link exists", tools.evaluate(
            "document.querySelectorAll('a[href^=\"javascript\" i]').length") == 0)
        shown = tools.evaluate(
            "[...document.querySelectorAll('article.card')].map(c => c.textContent).find(t => t.includes('__pwned=1')) || ''")
        check("the hostile title is shown as text", "<script>window.__pwned=1</script>" in shown, shown[:120])
        check("a right-to-left override is removed", "\u202e" not in shown)
        check("the page is still visible (no injected style)", tools.evaluate(
            "getComputedStyle(document.body).display") != "none")
        overflow = tools.evaluate(
            "[...document.querySelectorAll('article.card')].some(c => c.scrollWidth > c.clientWidth + 1)")
        check("long words wrap inside their card", not overflow)
        tools.evaluate("document.querySelector('article.outcome-rich details').open = true")
        opened = tools.evaluate(
            "(() => { const i = document.querySelector('article.outcome-rich img.media'); return i.clientWidth; })()")
        check("an opened rich card shows the image large", opened > 200, f"{opened}px wide")

        def background():
            return tools.evaluate("getComputedStyle(document.body).backgroundColor")

        tools.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])
        light = background()
        tools.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        dark = background()
        check("dark mode follows the viewer's system setting", light != dark, f"light {light}, dark {dark}")
        tools.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])

        tools.send("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=3, mobile=True)
        tools.evaluate("document.querySelectorAll('article.card > details').forEach(d => d.open = true)")
        phone = tools.evaluate(
            "({page: document.documentElement.scrollWidth, view: window.innerWidth,"
            " cards: [...document.querySelectorAll('article.card')].filter(c => c.scrollWidth > c.clientWidth + 1).length})")
        check("on a 390 px phone screen nothing is wider than the screen, cards opened",
              phone["page"] <= phone["view"] and phone["cards"] == 0, str(phone))
        tools.evaluate("document.querySelectorAll('article.card > details').forEach(d => d.open = false)")
        tools.send("Emulation.clearDeviceMetricsOverride")

        phone_checks(tools, work, env, screenshot)
        summary_checks(tools, work, env)
    except (OSError, RuntimeError, ValueError) as error:
        print(f"html-report-e2e: {error}")
        check("the browser session ran to the end", False, str(error))
    finally:
        if browser is not None:
            browser.kill()
            browser.wait()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
