#!/usr/bin/env python3
"""The common reference: the classic two-thread capture proxy for stdio MCP servers.

One thread per direction reads a line (readline), appends it to a journal with a timestamp and the
direction, flushes the journal, and forwards the line. The server's stderr is inherited.
Usage: python3 bench/py-relay.py <journal-file> <command> [args...]
"""
import subprocess
import sys
import threading
import time

journal_path, cmd = sys.argv[1], sys.argv[2:]
if not cmd:
    sys.stderr.write("usage: py-relay.py <journal> <command> [args...]\n")
    sys.exit(2)

journal = open(journal_path, "ab")
lock = threading.Lock()
child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def record(direction, line):
    with lock:
        journal.write(b"%.6f %s " % (time.time(), direction))
        journal.write(line if line.endswith(b"\n") else line + b"\n")
        journal.flush()


def client_to_server():
    src = sys.stdin.buffer
    try:
        while True:
            line = src.readline()
            if not line:
                break
            record(b">", line)
            child.stdin.write(line)
            child.stdin.flush()
    except (BrokenPipeError, OSError):
        pass
    try:
        child.stdin.close()
    except OSError:
        pass


def server_to_client():
    dst = sys.stdout.buffer
    try:
        while True:
            line = child.stdout.readline()
            if not line:
                break
            record(b"<", line)
            dst.write(line)
            dst.flush()
    except (BrokenPipeError, OSError):
        pass


t_in = threading.Thread(target=client_to_server, daemon=True)
t_out = threading.Thread(target=server_to_client)
t_in.start()
t_out.start()
t_out.join()
code = child.wait()
journal.close()
sys.stdout.flush()
# the stdin thread may still block in readline (host keeps stdin open): leave without waiting for it
import os
os._exit(code if code >= 0 else 128 - code)
