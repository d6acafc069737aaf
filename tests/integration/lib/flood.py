#!/usr/bin/env python3
"""flood.py -- holds connections open to a listener and says nothing, reopening each one the
listener closes, as an attacker without the token would to lock agents out.

  flood.py HOST:PORT COUNT RATE SOURCES STATSFILE

Keeps COUNT silent TCP connections to HOST:PORT, spread over SOURCES source addresses
(127.0.0.10, 127.0.0.11, ...; 0: the kernel's choice); a connection the listener closes is opened
again, at most RATE opens per second in all. Every second (and on SIGTERM) writes
"opened N closed N open N" to STATSFILE. Runs until killed."""
import errno
import os
import resource
import selectors
import signal
import socket
import sys
import time


def main():
    host, port = sys.argv[1].rsplit(":", 1)
    count, rate, sources = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    stats = sys.argv[5]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 64)), hard))
    sel = selectors.DefaultSelector()
    opened = closed = 0
    n = 0
    state = {"stop": False}
    signal.signal(signal.SIGTERM, lambda *_: state.update(stop=True))

    def write_stats():
        tmp = stats + ".tmp"
        with open(tmp, "w") as f:
            f.write("opened %d closed %d open %d\n" % (opened, closed, n))
        os.replace(tmp, stats)

    def open_one(i):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if sources:
            s.bind(("127.0.0.%d" % (10 + i % sources), 0))
        s.setblocking(False)
        try:
            s.connect((host, int(port)))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return False
        sel.register(s, selectors.EVENT_READ, i)
        return True

    budget, last, next_stats, i = 0.0, time.monotonic(), 0.0, 0
    while not state["stop"]:
        now = time.monotonic()
        budget = min(budget + (now - last) * rate, rate)
        last = now
        while n < count and budget >= 1:
            budget -= 1
            if open_one(i):
                opened += 1
                n += 1
            i += 1
        for key, _ in sel.select(timeout=0.01):
            s = key.fileobj
            try:
                d = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                d = b""
            if not d:
                sel.unregister(s)
                s.close()
                closed += 1
                n -= 1
        if now >= next_stats:
            write_stats()
            next_stats = now + 1
    write_stats()


if __name__ == "__main__":
    main()
