#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster on loopback for the tests that need a real PostgreSQL.

Usage: postgres_server.py BIN DIRECTORY
  BIN        the folder of PostgreSQL's programs (scripts/install-postgresql prints it)
  DIRECTORY  an empty directory for the cluster and its log; the caller removes it

Creates a cluster with initdb (a superuser `admin`, password authentication, UTF-8), starts it on a free
loopback port with its socket in DIRECTORY, and prints `PORT <n>`. It also listens on 127.0.0.2, the address
through which a test cuts one client off (NetworkCut in TesseraTestSupport). Tests connect as `admin` with the password
`admin` to create a database and a role without privileges for each test: Tessera never needs a superuser.
The cluster is for throwing away: fsync is off, and DIRECTORY is removed when it stops. PostgreSQL refuses to run as root, so as root it runs as the
`postgres` user that Debian's package creates. It dies with this process (PR_SET_PDEATHSIG), and this process
when its standard input closes, as the test process ends however it ends. The log is DIRECTORY/postgres.log.
"""
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_server_user():
    """Runs in the child: drops root for `postgres`, then dies with its parent (a change of user clears that)."""
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


def sweep(directory):
    """Removes the clusters of earlier test runs whose server is gone: a test runner that kills its children
    leaves this script no time to remove its own."""
    parent = os.path.dirname(os.path.abspath(directory))
    for name in os.listdir(parent):
        path = os.path.join(parent, name)
        if not name.startswith("tessera-postgres-") or path == os.path.abspath(directory):
            continue
        try:
            with open(os.path.join(path, "data", "postmaster.pid")) as file:
                os.kill(int(file.readline()), 0)
            continue  # its server still runs
        except (OSError, ValueError):
            shutil.rmtree(path, ignore_errors=True)


def main():
    bin_dir, directory = sys.argv[1], sys.argv[2]
    sweep(directory)
    data = os.path.join(directory, "data")
    password_file = os.path.join(directory, "password")
    with open(password_file, "w") as file:
        file.write("admin\n")
    if os.getuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (directory, password_file):
            os.chown(path, user.pw_uid, user.pw_gid)
    log = open(os.path.join(directory, "postgres.log"), "w")
    subprocess.run(
        [os.path.join(bin_dir, "initdb"), "-D", data, "-U", "admin", "--pwfile", password_file,
         "--auth", "scram-sha-256", "-E", "UTF8", "--locale", "C", "--no-sync"],
        stdout=log, stderr=log, check=True, preexec_fn=as_server_user)
    port = free_port()
    server = subprocess.Popen(
        [os.path.join(bin_dir, "postgres"), "-D", data, "-p", str(port), "-k", directory,
         "-c", "listen_addresses=127.0.0.1,127.0.0.2", "-c", "fsync=off", "-c", "max_connections=200"],
        stdout=log, stderr=log, preexec_fn=as_server_user)

    def stop(*_):
        server.kill()
        server.wait()
        shutil.rmtree(directory, ignore_errors=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def stop_when_the_parent_ends():
        sys.stdin.buffer.read()
        server.kill()
        # The cluster is thrown away with the test process that used it.
        server.wait()
        shutil.rmtree(directory, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=stop_when_the_parent_ends, daemon=True).start()
    deadline = time.monotonic() + 60
    while subprocess.run(
            [os.path.join(bin_dir, "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"]).returncode != 0:
        if server.poll() is not None or time.monotonic() > deadline:
            sys.stderr.write(f"PostgreSQL did not start; its log: {directory}/postgres.log\n")
            server.kill()
            sys.exit(1)
        # Not ready yet: wait a moment, or for the server to exit.
        try:
            server.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
    print(f"PORT {port}", flush=True)
    server.wait()
    sys.exit(1)


if __name__ == "__main__":
    main()
