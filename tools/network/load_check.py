"""A load test of `fbd serve` on 127.0.0.1: a pymodbus client polling every 50 ms and a page's
WebSocket asking every 100 ms are connected; then 200 hostile connections are opened and held
(idle ones, Modbus clients dripping a frame a byte at a time, HTTP clients dripping their request
head, and Modbus clients that send requests and never read a reply; each opens again as soon as
it is closed), and the page is loaded anew every second. Measures how long the PLC's clients
wait, how many new page loads get through, and how many scans the PLC makes per second.

usage: load_check.py FBD [SECONDS]
Prints one JSON line. Bounded: SECONDS (default 20) of measuring, every connection to
127.0.0.1, every thread ended at the end."""

import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

from pymodbus.client import ModbusTcpClient

stop = threading.Event()
connects = []


def hostile(kind, modbus_port, http_port):
    """One hostile client: connects, misbehaves, and connects again when it is closed."""
    while not stop.is_set():
        try:
            port = http_port if kind == "http-drip" else modbus_port
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            connects.append(1)
            s.settimeout(0.5)
            if kind == "idle":
                while not stop.is_set():
                    if s.recv(1) == b"":
                        break
            elif kind == "modbus-drip":
                for b in bytes([0, 1, 0, 0, 0, 6, 1, 4, 0, 0, 0, 1]) * 100:
                    if stop.is_set():
                        break
                    s.sendall(bytes([b]))
                    time.sleep(1.0)
            elif kind == "http-drip":
                for b in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000:
                    if stop.is_set():
                        break
                    s.sendall(bytes([b]))
                    time.sleep(1.0)
            elif kind == "no-read":
                frame = bytes([0, 1, 0, 0, 0, 6, 1, 4, 0, 0, 0, 24]) * 100
                s.settimeout(2)
                while not stop.is_set():
                    s.sendall(frame)
            s.close()
        except OSError:
            time.sleep(0.05)


if sys.argv[1] == "--flood":
    mp, hp, secs = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    for kind, n in [("idle", 80), ("modbus-drip", 40), ("http-drip", 40), ("no-read", 40)]:
        for _ in range(n):
            threading.Thread(target=hostile, args=(kind, mp, hp), daemon=True).start()
    time.sleep(secs)
    stop.set()
    print(len(connects), flush=True)
    sys.exit(0)

fbd = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0

serve = subprocess.Popen(
    [fbd, "serve", "--modbus", "127.0.0.1:0", "--http", "127.0.0.1:0", "--for-seconds", str(seconds + 30)],
    stdout=subprocess.PIPE,
    stderr=subprocess.DEVNULL,
    text=True,
)
modbus_port = int(serve.stdout.readline().split("127.0.0.1:")[1].split()[0].rstrip(")"))
http_port = int(serve.stdout.readline().split("127.0.0.1:")[1].split("/")[0])
def read_scans(c):
    r = c.read_input_registers(20, count=4)
    if r.isError():
        return None
    return sum(v << (16 * (3 - k)) for k, v in enumerate(r.registers))


modbus_waits, modbus_failures = [], 0
c = ModbusTcpClient("127.0.0.1", port=modbus_port, timeout=2)
t0 = time.monotonic()
connected = c.connect()
connect_s = time.monotonic() - t0
scans0, at0 = read_scans(c) if connected else None, time.monotonic()


def websocket_round_trips(results):
    """The page's socket, by hand (RFC 6455, masked frames): a message every 100 ms, each
    answered (without the token, a press is refused with a reply): the wait for the reply."""
    try:
        s = socket.create_connection(("127.0.0.1", http_port), timeout=2)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{http_port}\r\nOrigin: http://127.0.0.1:{http_port}\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
        results["ws_handshake"] = head.split(b"\r\n")[0].decode()
        buf = b""

        def frame():
            nonlocal buf
            while True:
                if len(buf) >= 2:
                    op, n = buf[0] & 0x0F, buf[1] & 0x7F
                    at = 2
                    if n == 126:
                        n, at = int.from_bytes(buf[2:4], "big"), 4
                    elif n == 127:
                        n, at = int.from_bytes(buf[2:10], "big"), 10
                    if len(buf) >= at + n:
                        data, buf = buf[at : at + n], buf[at + n :]
                        return op, data
                chunk = s.recv(65536)
                if not chunk:
                    raise OSError("closed")
                buf += chunk

        def send(text, op=1):
            data = text.encode() if isinstance(text, str) else text
            mask = os.urandom(4)
            s.sendall(bytes([0x80 | op, 0x80 | len(data)]) + mask + bytes(b ^ mask[k % 4] for k, b in enumerate(data)))

        while not stop.is_set():
            t = time.monotonic()
            send('{"press": "start"}')
            while True:
                op, data = frame()
                if op == 9:
                    send(data, op=10)
                elif op == 1 and b"error" in data:
                    break
            results["ws_waits"].append(time.monotonic() - t)
            time.sleep(0.1)
    except OSError as e:
        results["ws_error"] = str(e)


ws = {"ws_waits": []}
wt = threading.Thread(target=websocket_round_trips, args=(ws,), daemon=True)
wt.start()
# The PLC's own clients are connected; then the flood comes and stays, from another process
# (its 200 threads would otherwise hold this one's interpreter lock and slow the measuring).
flood = subprocess.Popen(
    [sys.executable, __file__, "--flood", str(modbus_port), str(http_port), str(seconds)],
    stdout=subprocess.PIPE,
    text=True,
)
time.sleep(1)
page_waits, page_refused = [], 0
end = time.monotonic() + seconds
next_page = 0.0
while time.monotonic() < end:
    t = time.monotonic()
    r = c.read_input_registers(0, count=16)
    if r.isError():
        modbus_failures += 1
    else:
        modbus_waits.append(time.monotonic() - t)
    if t >= next_page:
        next_page = t + 1.0
        try:
            p = socket.create_connection(("127.0.0.1", http_port), timeout=2)
            p.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{http_port}\r\n\r\n".encode())
            body = b""
            while True:
                chunk = p.recv(65536)
                if not chunk:
                    break
                body += chunk
            p.close()
            if body.startswith(b"HTTP/1.1 200"):
                page_waits.append(time.monotonic() - t)
            else:
                page_refused += 1
        except OSError:
            page_refused += 1
    time.sleep(0.05)
scans1, at1 = read_scans(c), time.monotonic()
stop.set()
c.close()
wt.join(timeout=5)
flood_connects = flood.communicate(timeout=30)[0].strip()
serve.terminate()
serve.wait(timeout=30)


def ms(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 2)


print(
    json.dumps(
        {
            "hostile_connections": 200,
            "hostile_connects": int(flood_connects or 0),
            "modbus_connect_ms": round(1000 * connect_s, 2),
            "modbus_reads": len(modbus_waits),
            "modbus_failures": modbus_failures,
            "modbus_ms_p50": ms(modbus_waits, 0.5),
            "modbus_ms_p99": ms(modbus_waits, 0.99),
            "modbus_ms_max": ms(modbus_waits, 1.0),
            "page_loads": len(page_waits),
            "page_loads_refused": page_refused,
            "page_ms_max": ms(page_waits, 1.0),
            "ws_handshake": ws.get("ws_handshake"),
            "ws_error": ws.get("ws_error"),
            "ws_round_trips": len(ws["ws_waits"]),
            "ws_ms_p50": ms(ws["ws_waits"], 0.5),
            "ws_ms_max": ms(ws["ws_waits"], 1.0),
            "scans_per_s": None if scans0 is None or scans1 is None else round((scans1 - scans0) / (at1 - at0), 1),
        }
    )
)
