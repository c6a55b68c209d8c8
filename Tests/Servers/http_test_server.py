#!/usr/bin/env python3
"""A small HTTP server on loopback for the HTTP client's tests.

Prints `PORT <n>` once it listens. Paths:
  /status/<code>   that status, body "status <code>"
  /bytes/<n>       n bytes (0..255 repeating)
  /hold            never answers: waits until the client closes the connection
  /held            how many /hold requests are waiting now
  /drop            promises 1000 bytes, sends 10, closes the connection
  /echo            answers JSON with the method, headers and body it got
  /connection      the id of the TCP connection (to see keep-alive)
"""
import http.server
import json
import os
import signal
import sys
import threading

# A parent that starts us from a thread with SIGTERM blocked would pass the block on; undo it.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})


held = [0]
held_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as separate writes; with Nagle's algorithm on, each response would wait for
    # the client's delayed ACK (about 40 ms).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def respond(self, status, body, content_type="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        parts = self.path.strip("/").split("/")
        if parts[0] == "status":
            self.respond(int(parts[1]), f"status {parts[1]}".encode())
        elif parts[0] == "bytes":
            size = int(parts[1])
            self.respond(200, (bytes(range(256)) * (size // 256 + 1))[:size], "application/octet-stream")
        elif parts[0] == "hold":
            # However slow the machine, no answer comes before the client gives up: no test races a timer here.
            with held_lock:
                held[0] += 1
            while self.connection.recv(1024):
                pass
            with held_lock:
                held[0] -= 1
            self.close_connection = True
        elif parts[0] == "held":
            with held_lock:
                self.respond(200, str(held[0]).encode())
        elif parts[0] == "drop":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
        elif parts[0] == "echo":
            answer = {"method": self.command, "headers": dict(self.headers), "body": body.decode("utf-8", "replace")}
            self.respond(200, json.dumps(answer).encode(), "application/json")
        elif parts[0] == "connection":
            self.respond(200, str(id(self.connection)).encode())
        else:
            self.respond(404, b"no such path")

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)


def stop_when_the_parent_ends():
    # The test process holds our standard input open: a server a test forgot to stop ends with the run, instead
    # of keeping the run's output open (and `swift test` waiting for it) for ever.
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=stop_when_the_parent_ends, daemon=True).start()
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
