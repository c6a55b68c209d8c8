#!/usr/bin/env python3
"""A real Synapse homeserver on loopback for the Matrix tests.

Usage: synapse_server.py PYTHON SHARED_SECRET DIRECTORY
  PYTHON         the python3 of the virtual environment Synapse is installed in (scripts/install-synapse)
  SHARED_SECRET  the registration shared secret, with which tests register users and admins
  DIRECTORY      an empty directory for the configuration, database and log; the caller removes it

Writes a minimal configuration into the directory (SQLite, client API on 127.0.0.1 only, no
federation, generous rate limits so only the tests that lower them meet one), starts Synapse, waits until it
answers /health, and prints `PORT <n>`. Synapse dies with this process (PR_SET_PDEATHSIG), and this process
when its standard input closes, which happens when the test process ends however it ends (a parent's
thread ending would not do: test runners start servers from worker threads that come and go), so a test run
never leaves a homeserver behind. Synapse's log is in the directory's
`synapse.log`, whose path goes to standard error if it does not start.
"""
import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent():
    # Linux: SIGKILL this process when the one that started it ends, however it ends.
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


def configuration(directory, port, secret):
    generous = "{per_second: 1000, burst_count: 1000}"
    return f"""
server_name: "localhost"
pid_file: "{directory}/homeserver.pid"
listeners:
  - port: {port}
    bind_addresses: ["127.0.0.1"]
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "{directory}/homeserver.db"
media_store_path: "{directory}/media"
signing_key_path: "{directory}/signing.key"
registration_shared_secret: "{secret}"
# Tests register their people over the client API; admins with the shared secret.
enable_registration: true
enable_registration_without_verification: true
macaroon_secret_key: "{secret}-macaroon"
form_secret: "{secret}-form"
report_stats: false
enable_metrics: false
trusted_key_servers: []
suppress_key_server_warning: true
federation_domain_whitelist: []
presence:
  enabled: false
# Identical /sync requests are answered from a cache for two minutes by default: a test waiting twice for
# the same thing would be shown the first answer again.
caches:
  sync_response_cache_duration: 0
rc_message: {generous}
rc_registration: {generous}
rc_login:
  address: {generous}
  account: {generous}
  failed_attempts: {generous}
rc_joins:
  local: {generous}
  remote: {generous}
rc_invites:
  per_room: {generous}
  per_user: {generous}
  per_issuer: {generous}
rc_admin_redaction: {generous}
"""


def start(python, secret, directory, log):
    """Starts Synapse on a free port and waits until it is healthy: (process, port), or (None, None) when
    another process took the port between the probe and Synapse's bind (it is then tried on another)."""
    port = free_port()
    config = os.path.join(directory, "homeserver.yaml")
    with open(config, "w") as file:
        file.write(configuration(directory, port, secret))
    command = [python, "-m", "synapse.app.homeserver", "-c", config]
    if not os.path.exists(os.path.join(directory, "signing.key")):
        subprocess.run(command + ["--generate-keys"], stdout=log, stderr=log, check=True)
    started = log.tell()
    synapse = subprocess.Popen(command, stdout=log, stderr=log, preexec_fn=die_with_parent)
    deadline = time.monotonic() + 60
    while True:
        if synapse.poll() is not None or time.monotonic() > deadline:
            synapse.kill()
            synapse.wait()
            log.flush()
            with open(log.name) as written:
                written.seek(started)
                if "Failed to listen on TCP port" in written.read():
                    return None, None
            return synapse, None
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as response:
                if response.status == 200:
                    return synapse, port
        except OSError:
            # Not listening yet: wait a moment, or for Synapse to exit.
            try:
                synapse.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass


def main():
    python, secret, directory = sys.argv[1], sys.argv[2], sys.argv[3]
    log = open(os.path.join(directory, "synapse.log"), "w")
    running = []

    def stop(*_):
        for synapse in running:
            synapse.kill()
            synapse.wait()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def stop_when_the_parent_ends():
        sys.stdin.buffer.read()
        for synapse in running:
            synapse.kill()
        os._exit(0)

    threading.Thread(target=stop_when_the_parent_ends, daemon=True).start()
    # A port found free can be taken by another test's server before Synapse binds it: tried again on another.
    for _ in range(5):
        synapse, port = start(python, secret, directory, log)
        if synapse is not None:
            break
    if port is None:
        sys.stderr.write(f"Synapse did not start; its log: {directory}/synapse.log\n")
        sys.exit(1)
    running.append(synapse)
    print(f"PORT {port}", flush=True)
    synapse.wait()
    sys.exit(1)


if __name__ == "__main__":
    main()
