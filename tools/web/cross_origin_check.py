"""A foreign web page tries to take over `fbd serve` (cross-site WebSocket hijacking): a page
served from another origin on 127.0.0.1 opens the PLC's live-value socket, as any site the
operator visits could, and tries to press Start and read the state. Run in Debian's chromium
headless through chromium-driver (Selenium).

usage: cross_origin_check.py PLC_PORT
Prints one JSON line: whether the socket opened, the messages it received, its close code."""

import http.server
import json
import sys
import threading
import time

from headless import chromium


plc_port = int(sys.argv[1])

PAGE = """<!doctype html><html><body><script>
window.report = {opened: false, messages: [], closed: null};
const ws = new WebSocket("ws://127.0.0.1:%d/ws");
ws.onopen = () => { window.report.opened = true; ws.send(JSON.stringify({press: "start"})); };
ws.onmessage = (e) => { window.report.messages.push(e.data); };
ws.onclose = (e) => { window.report.closed = e.code; };
</script></body></html>""" % plc_port


class Foreign(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


# The foreign site: another port of 127.0.0.1 is another origin.
site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Foreign)
threading.Thread(target=site.serve_forever, daemon=True).start()

driver = chromium()
try:
    driver.get("http://127.0.0.1:%d/" % site.server_address[1])
    report = None
    # Bounded: the handshake ends (refused or open) within a second on loopback.
    for _ in range(500):
        report = driver.execute_script("return window.report")
        if report["closed"] is not None or report["messages"]:
            break
        time.sleep(0.01)
    report["foreign_origin"] = "http://127.0.0.1:%d" % site.server_address[1]
    print(json.dumps(report))
finally:
    driver.quit()
    site.shutdown()
