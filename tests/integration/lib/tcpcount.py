#!/usr/bin/env python3
"""tcpcount.py -- a loopback TCP listener for the agent's end-to-end tests.

  tcpcount.py PORTFILE LOGFILE silent            accept connections and never answer
  tcpcount.py PORTFILE LOGFILE forward HOST:PORT [NAME,...]
                                                 forward each connection to HOST:PORT, except
                                                 those whose first bytes (the RDP X.224 request,
                                                 "Cookie: mstshash=USER") name one of NAME,...:
                                                 those are held open and never answered

Binds 127.0.0.1 on a free port (or on the port PORTFILE already names: a relay started again
keeps its address) and writes the port to PORTFILE once listening; appends one line "accept N"
to LOGFILE per accepted connection (so tests can count TCP connections). Killing it cuts every
forwarded connection."""
import os
import socket
import sys
import threading


def pump(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def main():
    portfile, logfile, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    target = None
    hold = []
    if mode == "forward":
        h, p = sys.argv[4].rsplit(":", 1)
        target = (h, int(p))
        if len(sys.argv) > 5:
            hold = [("mstshash=" + n + "\r").encode() for n in sys.argv[5].split(",")]
    port = 0
    if os.path.exists(portfile):
        with open(portfile) as f:
            port = int(f.read().strip() or 0)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(256)
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(ls.getsockname()[1]))
    os.rename(tmp, portfile)
    held = []
    n = 0
    while True:
        c, _ = ls.accept()
        n += 1
        first = b""
        if hold:
            c.settimeout(5)
            try:
                first = c.recv(4096)
            except OSError:
                pass
            c.settimeout(None)
        held_now = mode == "silent" or any(h in first for h in hold)
        with open(logfile, "a") as f:
            f.write("accept %d%s\n" % (n, " held" if held_now else ""))
        if held_now:
            held.append(c)          # keep it open, say nothing
            continue
        try:
            u = socket.create_connection(target)
            if first:
                u.sendall(first)
        except OSError:
            c.close()
            continue
        threading.Thread(target=pump, args=(c, u), daemon=True).start()
        threading.Thread(target=pump, args=(u, c), daemon=True).start()


if __name__ == "__main__":
    main()
