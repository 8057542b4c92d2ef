#!/usr/bin/env python3
"""Real client libraries against `richpush serve`, each configured as a user would.

Starts RICHPUSH_BIN (default .build/debug/richpush) `serve` twice on loopback, on free ports: over TLS with a
CA written by --ca-out, and with --plaintext (h2c). Then, each a named check:

- aioapns 4.0, token auth (a fresh ES256 key), with its own kind of SSL context (ssl.create_default_context(),
  here with the CA as cafile; it offers no ALPN). aioapns has no host/port option: the host and port are the
  APNS_SERVER / APNS_PORT of its protocol class, so a subclass of APNsProductionClientProtocol goes into
  apns.pool.protocol_class. Checks: an accepted push, a push to the --unregistered token (410 Unregistered), and
  two pushes in a row on one connection with no error reported to the event loop (a user sees such an error
  as a traceback on stderr, and aioapns then opens a new connection for the next push).
- httpx with http2=True and an SSL context trusting the CA.
- curl --http2 --cacert (TLS, ALPN h2), and curl --http2-prior-knowledge against the --plaintext server; then
  curl --http2 with a 64 KB header (HEADERS plus CONTINUATION frames, 431) and a push after it on the same
  connection (200).
- firebase-admin: messaging.send(). Its FCM URL is the class attribute _MessagingService.FCM_URL (it has no
  emulator setting for messaging), the credential is a google.auth Credentials subclass with a static token,
  and its requests session trusts the CA through REQUESTS_CA_BUNDLE. Checks: send to a registration token,
  to a Message.fid (firebase-admin 7 deprecates `token` for it), and to the --unregistered token.
- GET /richpush/v1/notifications on both servers lists exactly the pushes the clients saw accepted.

Prints `ok   name` or `FAIL name: why` per check, then `N passed, N failed`; exits 1 when a check failed.
Run it through scripts/interop, which installs Tests/Interop/requirements.txt into .build/interop-venv.
"""
import asyncio
import json
import logging
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
import warnings

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BINARY = os.path.abspath(os.environ.get("RICHPUSH_BIN") or os.path.join(ROOT, ".build", "debug", "richpush"))
BUNDLE = "com.example.interop"
KEY_ID = "ABC123DEFG"
TEAM_ID = "DEF123GHIJ"
PROJECT = "richpush-interop"
UNREGISTERED = "0bad" * 16  # 64 hex digits, given to serve with --unregistered
TOKENS = {  # one device token per client, so the inspection API shows who sent what
    "aioapns": "a1" * 32,
    "httpx": "b2" * 32,
    "curl": "c3" * 32,
    "curl-h2c": "d4" * 32,
    "curl-large": "e5" * 32,
}
FCM_TOKEN = "fInterop0:APA91bHrichpushInteropRegistrationToken_for-firebase-admin"
FCM_FID = "fInteropRichpush0abcde"  # a Firebase installation ID: 22 characters of base64url

WORK = tempfile.mkdtemp(prefix="richpush-interop-")
CA = os.path.join(WORK, "ca.pem")

# Pushes a client saw accepted: (server name, apns id or FCM message id, token, transport).
accepted = []
servers = {}


def one_line(text):
    return " | ".join(line.strip() for line in str(text).strip().splitlines() if line.strip())


class Server:
    """`richpush serve --listen 127.0.0.1:0 ...` in the background; its port is read from the banner on stderr."""

    def __init__(self, name, extra):
        self.name = name
        self.stderr_path = os.path.join(WORK, f"serve-{name}.err")
        self.output_path = os.path.join(WORK, f"serve-{name}.jsonl")
        arguments = [BINARY, "serve", "--listen", "127.0.0.1:0", "--format", "jsonl", "--output", self.output_path,
                     "--unregistered", UNREGISTERED, "--bundle-id", BUNDLE] + extra
        self.stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen(arguments, cwd=ROOT, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=self.stderr)
        self.port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log())
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        if self.port is None:
            self.stop()
            raise RuntimeError(f"serve ({name}) did not start: {one_line(self.log())}")

    def log(self):
        with open(self.stderr_path, errors="replace") as file:
            return file.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()


def es256_key():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


KEY = None


def provider_token():
    """A signed ES256 provider token, as a backend makes it (PyJWT, which aioapns uses too)."""
    import jwt
    return jwt.encode({"iss": TEAM_ID, "iat": int(time.time())}, KEY, algorithm="ES256",
                      headers={"kid": KEY_ID})


def tls_context():
    return ssl.create_default_context(cafile=CA)


# ---------------------------------------------------------------------------------------------- aioapns

class AioapnsLog(logging.Handler):
    """aioapns reports connection trouble only in its log: keep it for the failure message."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []
        self.established = 0

    def emit(self, record):
        if record.getMessage().startswith("Connection established"):
            self.established += 1
        line = f"{record.levelname}: {record.getMessage()}"
        line = re.sub(r"<[\w.]+ object at 0x[0-9a-f]+>", "<connection>", line)
        line = re.sub(r"notification [0-9a-f-]{36}", "notification <id>", line)
        if line not in self.lines:
            self.lines.append(line)


aioapns_log = AioapnsLog()
logging.getLogger("aioapns").addHandler(aioapns_log)
logging.getLogger("aioapns").setLevel(logging.INFO)
logging.getLogger("aioapns").propagate = False


def aioapns_session(pushes):
    """Sends (token, message) pushes one after the other with one APNs client, as a backend does.

    Returns [(request, result)] and what the event loop was told of errors (asyncio's "Fatal error on SSL
    protocol" and the like, which a user sees as a traceback on stderr)."""
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsProductionClientProtocol

    class RichPushAPNs(APNsProductionClientProtocol):
        APNS_SERVER = "localhost"
        APNS_PORT = servers["tls"].port

    loop_errors = []

    async def session():
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: loop_errors.append(context))
        client = APNs(key=KEY, key_id=KEY_ID, team_id=TEAM_ID, topic=BUNDLE, ssl_context=tls_context())
        client.pool.protocol_class = RichPushAPNs
        outcomes = []
        try:
            for token, message in pushes:
                request = NotificationRequest(device_token=token, message=message,
                                              notification_id=str(uuid.uuid4()), push_type=PushType.ALERT)
                try:
                    result = await asyncio.wait_for(client.send_notification(request), 30)
                except Exception as error:
                    raise AssertionError(
                        f"send_notification raised {type(error).__name__}({one_line(error)}); "
                        f"aioapns log: {' / '.join(aioapns_log.lines) or 'empty'}") from None
                outcomes.append((request, result))
                await asyncio.sleep(0.3)  # the rest of the answer's frames, as a sender that stays up gets them
        finally:
            client.pool.close()
            await asyncio.sleep(0)
        return outcomes

    aioapns_log.lines.clear()
    aioapns_log.established = 0
    return asyncio.run(session()), loop_errors


def describe_loop_error(context):
    error = context.get("exception")
    where = ""
    if error is not None:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "aioapns" in frame.filename]
        if frames:
            where = f" in aioapns {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} {frames[-1].name}"
    return f"{context.get('message')}: {type(error).__name__ if error else ''}({error}){where}"


def check_aioapns_accepted():
    [(request, result)], _ = aioapns_session(
        [(TOKENS["aioapns"], {"aps": {"alert": {"title": "Hello", "body": "from aioapns"}}})])
    assert result.is_successful, f"is_successful is False: status {result.status}, {result.description}"
    assert result.notification_id == request.notification_id, \
        f"apns-id {result.notification_id!r}, sent {request.notification_id!r}"
    accepted.append(("tls", request.notification_id, TOKENS["aioapns"], "apnsHTTP2"))


def check_aioapns_unregistered():
    [(request, result)], _ = aioapns_session([(UNREGISTERED, {"aps": {"alert": "to a token that is gone"}})])
    assert not result.is_successful, "is_successful is True for an --unregistered token"
    assert (result.status, result.description) == ("410", "Unregistered"), \
        f"status {result.status}, description {result.description!r}: want 410 Unregistered"
    assert isinstance(result.timestamp, int), f"timestamp {result.timestamp!r}: want milliseconds"


def check_aioapns_connection_kept():
    outcomes, loop_errors = aioapns_session(
        [(TOKENS["aioapns"], {"aps": {"alert": {"title": "First", "body": "one connection"}}}),
         (TOKENS["aioapns"], {"aps": {"alert": {"title": "Second", "body": "the same connection"}}})])
    for request, result in outcomes:
        assert result.is_successful, f"is_successful is False: status {result.status}, {result.description}"
        accepted.append(("tls", request.notification_id, TOKENS["aioapns"], "apnsHTTP2"))
    problems = [describe_loop_error(context) for context in loop_errors]
    if aioapns_log.established != 1:
        problems.append(f"{aioapns_log.established} connections for 2 pushes")
    assert not problems, "; ".join(dict.fromkeys(problems))


def tls_without_alpn_answer():
    """What the server answers a client that connects as aioapns does: TLS without ALPN, then HTTP/2."""
    try:
        import h2.connection
        connection = h2.connection.H2Connection()
        connection.initiate_connection()
        with socket.create_connection(("localhost", servers["tls"].port), 10) as raw:
            with tls_context().wrap_socket(raw, server_hostname="localhost") as tls:
                version, alpn = tls.version(), tls.selected_alpn_protocol()
                tls.sendall(connection.data_to_send())
                tls.settimeout(5)
                answer = b""
                try:
                    while len(answer) < 200:
                        chunk = tls.recv(4096)
                        if not chunk:
                            break
                        answer += chunk
                except socket.timeout:
                    pass
        if len(answer) >= 9 and answer[3] == 4:
            kind = "HTTP/2 (its first frame is SETTINGS)"
        elif answer.startswith(b"HTTP/"):
            kind = "HTTP/1.1"
        else:
            kind = "neither HTTP/2 nor HTTP/1.1"
        return (f"TLS without ALPN, as aioapns connects ({version}, ALPN {alpn}): to the HTTP/2 preface the "
                f"server answered {kind}: {answer[:100]!r}")
    except Exception as error:
        return f"TLS without ALPN: {type(error).__name__}: {error}"


# ------------------------------------------------------------------------------------------------ httpx

def apns_headers(apns_id, topic=BUNDLE):
    return {"authorization": f"bearer {provider_token()}", "apns-topic": topic, "apns-push-type": "alert",
            "apns-id": apns_id}


def describe(response):
    return f"{response.status_code} {response.http_version} {dict(response.headers)} {response.text[:200]!r}"


def check_httpx_accepted():
    import httpx
    apns_id = str(uuid.uuid4())
    with httpx.Client(http2=True, verify=tls_context(), timeout=10) as client:
        response = client.post(f"https://localhost:{servers['tls'].port}/3/device/{TOKENS['httpx']}",
                               headers=apns_headers(apns_id),
                               json={"aps": {"alert": {"title": "Hello", "body": "from httpx"}}})
    assert response.status_code == 200, describe(response)
    assert response.http_version == "HTTP/2", f"http_version {response.http_version!r}"
    assert response.headers.get("apns-id") == apns_id, f"apns-id {response.headers.get('apns-id')!r}, sent {apns_id}"
    accepted.append(("tls", apns_id, TOKENS["httpx"], "apnsHTTP2"))


def check_httpx_bad_topic():
    import httpx
    with httpx.Client(http2=True, verify=tls_context(), timeout=10) as client:
        response = client.post(f"https://localhost:{servers['tls'].port}/3/device/{TOKENS['httpx']}",
                               headers=apns_headers(str(uuid.uuid4()), topic="com.example.interop/bad!"),
                               json={"aps": {"alert": "a bad topic"}})
    assert response.status_code == 400, describe(response)
    assert response.http_version == "HTTP/2", f"http_version {response.http_version!r}"
    assert response.headers.get("content-type", "").startswith("application/json"), describe(response)
    assert response.json() == {"reason": "BadTopic"}, f"body {response.text!r}: want {{\"reason\": \"BadTopic\"}}"


def check_h2_large_header_then_push():
    """One HTTP/2 connection (the h2 library over TLS): a push with a 64 KB header, then a normal push."""
    import socket
    import h2.config
    import h2.connection
    import h2.events
    context = tls_context()
    context.set_alpn_protocols(["h2"])
    with socket.create_connection(("127.0.0.1", servers["tls"].port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname="localhost") as sock:
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        connection.initiate_connection()
        sock.sendall(connection.data_to_send())
        body = json.dumps({"aps": {"alert": {"title": "After a large header"}}}).encode()
        answers = {}

        def push(extra):
            stream = connection.get_next_available_stream_id()
            headers = [(":method", "POST"), (":scheme", "https"), (":authority", "localhost"),
                       (":path", f"/3/device/{TOKENS['httpx']}")]
            apns_id = str(uuid.uuid4())
            headers += list(apns_headers(apns_id).items()) + extra
            connection.send_headers(stream, headers)
            connection.send_data(stream, body, end_stream=True)
            sock.sendall(connection.data_to_send())
            while stream not in answers or not answers[stream].get("ended"):
                data = sock.recv(65536)
                assert data, f"the connection was closed before stream {stream} was answered: {answers}"
                for event in connection.receive_data(data):
                    if isinstance(event, h2.events.ResponseReceived):
                        answers.setdefault(event.stream_id, {})["status"] = dict(event.headers)[b":status"]
                    elif isinstance(event, h2.events.DataReceived):
                        answers.setdefault(event.stream_id, {}).setdefault("body", b"")
                        answers[event.stream_id]["body"] += event.data
                        connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                        answers.setdefault(event.stream_id, {})["ended"] = True
                        if isinstance(event, h2.events.StreamReset):
                            answers[event.stream_id]["reset"] = event.error_code
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        raise AssertionError(f"the server ended the connection: {event}")
                sock.sendall(connection.data_to_send())
            return dict(answers[stream], id=apns_id)

        large = push([("x-large", "x" * 65536)])
        assert large.get("status") == b"431", f"the 64 KB header got {large}"
        assert b"RequestHeaderFieldsTooLarge" in large.get("body", b""), f"the 64 KB header got {large}"
        normal = push([])
        assert normal.get("status") == b"200", f"the push after it, on the same connection, got {normal}"
        accepted.append(("tls", normal["id"], TOKENS["httpx"], "apnsHTTP2"))


# ------------------------------------------------------------------------------------------------- curl

def curl(arguments):
    headers = os.path.join(WORK, "curl-headers.txt")
    try:
        run = subprocess.run(["curl", "-sS", "--max-time", "10", "-o", os.path.join(WORK, "curl-body.txt"),
                              "-D", headers, "-w", "%{http_code} %{http_version}"] + arguments,
                             capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        raise AssertionError("curl not found (apt-get install curl)") from None
    assert run.returncode == 0, f"curl exit {run.returncode}: {one_line(run.stderr)}"
    with open(headers) as file:
        found = re.search(r"^apns-id: *(\S+)", file.read(), re.M | re.I)
    with open(os.path.join(WORK, "curl-body.txt"), errors="replace") as file:
        return run.stdout, found.group(1) if found else None, file.read()


def curl_push(url, token, apns_id, extra):
    return curl(extra + ["-H", f"authorization: bearer {provider_token()}", "-H", f"apns-topic: {BUNDLE}",
                         "-H", "apns-push-type: alert", "-H", f"apns-id: {apns_id}",
                         "--data", '{"aps":{"alert":{"title":"Hello","body":"from curl"}}}', f"{url}/3/device/{token}"])


def check_curl_tls():
    apns_id = str(uuid.uuid4())
    outcome, answered_id, body = curl_push(f"https://localhost:{servers['tls'].port}", TOKENS["curl"], apns_id,
                                           ["--http2", "--cacert", CA])
    assert outcome == "200 2", f"status and HTTP version {outcome!r}, body {body[:200]!r}: want '200 2'"
    assert answered_id == apns_id, f"apns-id {answered_id!r}, sent {apns_id}"
    accepted.append(("tls", apns_id, TOKENS["curl"], "apnsHTTP2"))


def check_curl_h2c():
    apns_id = str(uuid.uuid4())
    outcome, answered_id, body = curl_push(f"http://localhost:{servers['plaintext'].port}", TOKENS["curl-h2c"],
                                           apns_id, ["--http2-prior-knowledge"])
    assert outcome == "200 2", f"status and HTTP version {outcome!r}, body {body[:200]!r}: want '200 2'"
    assert answered_id == apns_id, f"apns-id {answered_id!r}, sent {apns_id}"
    accepted.append(("plaintext", apns_id, TOKENS["curl-h2c"], "apnsHTTP2"))


def check_curl_large_header_then_push():
    """curl --http2 over TLS, two transfers on one connection (--next): a push with a 64 KB header, then a push.

    64,000 bytes, which curl sends as HEADERS plus CONTINUATION frames. A header block over 64 KiB never leaves curl:
    nghttp2 refuses to send one (NGHTTP2_MAX_HEADERSLEN, 65,536 bytes) and fails the request itself with
    REFUSED_STREAM, which curl retries on new connections ("Connection died, tried 5 times"); nothing reaches the
    server then."""
    url = f"https://localhost:{servers['tls'].port}/3/device/{TOKENS['curl-large']}"
    apns_id = str(uuid.uuid4())
    bodies = [os.path.join(WORK, f"curl-large-{n}.txt") for n in (1, 2)]
    headers = os.path.join(WORK, "curl-large-headers.txt")
    push = ["--http2", "--cacert", CA, "-H", f"authorization: bearer {provider_token()}", "-H", f"apns-topic: {BUNDLE}",
            "-H", "apns-push-type: alert", "--data", '{"aps":{"alert":{"title":"After a large header"}}}',
            "-w", "%{http_code} %{http_version} %{num_connects}\\n"]
    try:
        run = subprocess.run(["curl", "-sS", "--max-time", "20"] + push + ["-H", "x-large: " + "x" * 64000,
                             "-o", bodies[0], url, "--next"] + push + ["-H", f"apns-id: {apns_id}", "-D", headers,
                             "-o", bodies[1], url], capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise AssertionError("curl not found (apt-get install curl)") from None
    outcomes = (run.stdout.split("\n") + ["", ""])[:2]  # status, HTTP version, connections made, per transfer
    if outcomes[1].startswith("200 "):
        accepted.append(("tls", apns_id, TOKENS["curl-large"], "apnsHTTP2"))
    assert outcomes[0] == "431 2 1", f"the 64 KB header got {outcomes[0]!r}: want '431 2 1' " \
                                     f"(curl exit {run.returncode}: {one_line(run.stderr)})"
    with open(bodies[0], errors="replace") as file:
        large = file.read()
    assert "RequestHeaderFieldsTooLarge" in large, f"the 64 KB header's body {large[:200]!r}"
    assert outcomes[1] == "200 2 0", f"the push after it got {outcomes[1]!r}: want '200 2 0', on the same connection " \
                                     f"(curl exit {run.returncode}: {one_line(run.stderr)})"
    with open(headers) as file:
        found = re.search(r"^apns-id: *(\S+)", file.read(), re.M | re.I)
    assert found and found.group(1) == apns_id, f"apns-id {found and found.group(1)!r}, sent {apns_id}"


# --------------------------------------------------------------------------------------- firebase-admin

firebase_app = None


def firebase():
    """firebase-admin pointed at serve's FCM endpoint: the FCM URL, a static token, the CA."""
    global firebase_app
    import firebase_admin
    import google.auth.credentials
    from firebase_admin import messaging
    if firebase_app is None:
        class StaticToken(google.auth.credentials.Credentials):
            """An OAuth2 token that never needs refreshing: richpush does not check it."""

            def __init__(self):
                super().__init__()
                self.token = "richpush-interop-token"

            def refresh(self, request):
                pass

        os.environ["REQUESTS_CA_BUNDLE"] = CA
        messaging._MessagingService.FCM_URL = \
            f"https://localhost:{servers['tls'].port}/v1/projects/{{0}}/messages:send"
        firebase_app = firebase_admin.initialize_app(StaticToken(), {"projectId": PROJECT, "httpTimeout": 10},
                                                     name="richpush-interop")
    return messaging, firebase_app


def token_message(messaging, **fields):
    """messaging.Message(token=...): firebase-admin 7 warns that `token` is deprecated (for `fid`); expected."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Message.token is deprecated", DeprecationWarning)
        return messaging.Message(**fields)


def firebase_error(error):
    response = getattr(error, "http_response", None)
    answer = f"; the server answered {response.status_code} {response.text[:300]!r}" if response is not None else ""
    return f"raised {type(error).__module__}.{type(error).__name__}({one_line(error)}){answer}"


def firebase_send_and_check(messaging, app, message, target, token):
    try:
        name = messaging.send(message, app=app)
    except Exception as error:
        raise AssertionError(firebase_error(error)) from None
    match = re.fullmatch(rf"projects/{re.escape(PROJECT)}/messages/(.+)", name)
    assert match, f"send returned {name!r}: want projects/{PROJECT}/messages/..."
    accepted.append(("tls", match.group(1), token, "fcmHTTP"))


def check_firebase_send():
    messaging, app = firebase()
    message = token_message(
        messaging, token=FCM_TOKEN,
        notification=messaging.Notification(title="Hello", body="from firebase-admin"),
        apns=messaging.APNSConfig(headers={"apns-push-type": "alert"}))
    firebase_send_and_check(messaging, app, message, "token", FCM_TOKEN)


def check_firebase_send_fid():
    messaging, app = firebase()
    message = messaging.Message(
        fid=FCM_FID, notification=messaging.Notification(title="Hello", body="from firebase-admin, to a FID"))
    firebase_send_and_check(messaging, app, message, "fid", None)


def check_firebase_unregistered():
    messaging, app = firebase()
    message = token_message(messaging, token=UNREGISTERED, notification=messaging.Notification(title="Gone"))
    try:
        name = messaging.send(message, app=app)
    except messaging.UnregisteredError as error:
        assert error.http_response is not None and error.http_response.status_code == 404, \
            f"UnregisteredError with HTTP status {getattr(error.http_response, 'status_code', None)}: want 404"
        return
    except Exception as error:
        raise AssertionError(f"{firebase_error(error)}: want messaging.UnregisteredError") from None
    raise AssertionError(f"send returned {name!r}: want messaging.UnregisteredError")


# ------------------------------------------------------------------------------------- inspection API

def check_notifications_listed():
    import httpx
    assert accepted, "no client push was accepted, so there is nothing to look for"
    problems = []
    for server_name, server in servers.items():
        if server_name == "tls":
            client = httpx.Client(http2=True, verify=tls_context(), timeout=10)
            url = f"https://localhost:{server.port}/richpush/v1/notifications"
        else:  # --plaintext serves HTTP/2 only: prior knowledge
            client = httpx.Client(http1=False, http2=True, timeout=10)
            url = f"http://localhost:{server.port}/richpush/v1/notifications"
        with client:
            deadline = time.monotonic() + 30
            while True:  # a 200 does not wait for the phone: wait until no delivery is in flight
                response = client.get(url)
                assert response.status_code == 200, f"{server_name}: {describe(response)}"
                listing = response.json()
                if listing["inFlight"] == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
        listed = {entry["apns"]["id"]: entry for entry in listing["notifications"] if entry.get("apns")}
        wanted = [push for push in accepted if push[0] == server_name]
        for _, push_id, token, transport in wanted:
            entry = listed.get(push_id)
            if entry is None:
                problems.append(f"{server_name}: {transport} push {push_id} (token {(token or '-')[:12]}…) is not listed")
                continue
            seen = (entry.get("status"), entry.get("delivered"), entry.get("transport"), entry["apns"].get("token"))
            if seen != (200, True, transport, token if token is not None else seen[3]):
                problems.append(f"{server_name}: push {push_id} listed as status {seen[0]}, delivered {seen[1]}, "
                                f"{seen[2]}, token {seen[3]}")
        extra = sorted(push_id for push_id, entry in listed.items()
                       if entry.get("status") == 200 and push_id not in {push[1] for push in wanted})
        if extra:
            problems.append(f"{server_name}: accepted pushes no client saw accepted: {extra}")
        if listing["inFlight"]:
            problems.append(f"{server_name}: still {listing['inFlight']} in flight after 30 s")
    assert not problems, "; ".join(problems)


CHECKS = [
    ("aioapns: accepted push is_successful, its notification id back as apns-id", check_aioapns_accepted),
    ("aioapns: push to the --unregistered token is 410 Unregistered", check_aioapns_unregistered),
    ("aioapns: two pushes share one connection, without a protocol error", check_aioapns_connection_kept),
    ("httpx http2: POST /3/device/TOKEN is 200 over HTTP/2 with the apns-id sent", check_httpx_accepted),
    ("httpx http2: a bad topic is 400 with JSON reason BadTopic", check_httpx_bad_topic),
    ("h2: a 64 KB header is 431 on its stream, and the next push on the same connection is 200",
     check_h2_large_header_then_push),
    ("curl --http2 --cacert (TLS, ALPN): 200 over HTTP/2", check_curl_tls),
    ("curl --http2-prior-knowledge (--plaintext, h2c): 200 over HTTP/2", check_curl_h2c),
    ("curl --http2: a 64 KB header (HEADERS + CONTINUATION) is 431, then a push on the same connection is 200",
     check_curl_large_header_then_push),
    ("firebase-admin: messaging.send returns projects/<project>/messages/<id>", check_firebase_send),
    ("firebase-admin: messaging.send to Message.fid (token's replacement in 7.x) returns the message name",
     check_firebase_send_fid),
    ("firebase-admin: send to the --unregistered token raises messaging.UnregisteredError", check_firebase_unregistered),
    ("GET /richpush/v1/notifications lists every accepted push, delivered", check_notifications_listed),
]


def main():
    global KEY
    passed = failed = 0
    notes = []
    try:
        if not os.access(BINARY, os.X_OK):
            print(f"FAIL start serve: {BINARY} not found (swift build --product richpush)")
            print("0 passed, 1 failed")
            return 1
        try:
            servers["tls"] = Server("tls", ["--ca-out", CA])
            servers["plaintext"] = Server("plaintext", ["--plaintext"])
        except Exception as error:
            print(f"FAIL start serve: {error}")
            print("0 passed, 1 failed")
            return 1
        KEY = es256_key()
        for name, check in CHECKS:
            try:
                check()
            except AssertionError as error:
                failed += 1
                print(f"FAIL {name}: {one_line(error) or 'assertion failed'}", flush=True)
                if name.startswith("aioapns") and "send_notification raised" in str(error) and not notes:
                    notes.append(tls_without_alpn_answer())
                    print(f"     note: {notes[-1]}", flush=True)
                continue
            except Exception as error:
                failed += 1
                print(f"FAIL {name}: {type(error).__name__}: {one_line(error)}", flush=True)
                continue
            passed += 1
            print(f"ok   {name}", flush=True)
        for server in servers.values():
            if server.process.poll() is not None:
                print(f"note: serve ({server.name}) exited early with {server.process.returncode}: "
                      f"{one_line(server.log())[-400:]}")
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(WORK, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
