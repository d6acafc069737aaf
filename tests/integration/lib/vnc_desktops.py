#!/usr/bin/env python3
# vnc_desktops.py PORTFILE PASSWDFILE GEOMETRY [APP]: a VNC target of one desktop per connection,
# on loopback only: each client that connects to 127.0.0.1:PORT (written to PORTFILE) gets its own
# TigerVNC Xvnc (-inetd: the connection is its stdin/stdout; VncAuth with the 0600 PASSWDFILE;
# no X TCP listener) with an xterm on it, or APP (a shell command run with DISPLAY set and
# VNC_DESKTOP=1, 2, ... numbering the connections). Runs until killed; kills its desktops then.
import os, signal, socket, subprocess, sys, time

port_file, passwd, geometry = sys.argv[1:4]
app = sys.argv[4] if len(sys.argv) > 4 else None
count = 0
procs = []
log = open(port_file + ".log", "a")

def stop(*_):
    for p in procs:
        try:
            p.kill()
        except OSError:
            pass
    sys.exit(0)

signal.signal(signal.SIGTERM, stop)
ls = socket.socket()
ls.bind(("127.0.0.1", 0))
ls.listen(8)
with open(port_file + ".tmp", "w") as f:
    f.write(str(ls.getsockname()[1]))
os.rename(port_file + ".tmp", port_file)
def free_display():
    """A display number far above the ones Xvfb's -displayfd search takes (from 0 up)."""
    for n in range(60 + os.getpid() % 100, 1000):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    raise SystemExit("no free X display number")

def wait_ready(n):
    for _ in range(200):
        try:
            socket.socket(socket.AF_UNIX).connect(f"/tmp/.X11-unix/X{n}")
            return True
        except OSError:
            time.sleep(0.05)
    return False

while True:
    conn, _ = ls.accept()
    n = free_display()
    x = subprocess.Popen(["Xvnc", f":{n}", "-inetd", "-geometry", geometry, "-depth", "24",
                          "-SecurityTypes", "VncAuth", "-PasswordFile", passwd, "-nolisten", "tcp",
                          "-AlwaysShared", "-noreset"],
                         stdin=conn.fileno(), stdout=conn.fileno(), stderr=log)
    conn.close()
    procs.append(x)
    if wait_ready(n):
        count += 1
        env = dict(os.environ, DISPLAY=f":{n}", VNC_DESKTOP=str(count))
        cmd = ["sh", "-c", app] if app else ["xterm", "-geometry", "80x24+0+0"]
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log))
