#!/usr/bin/env python3
# xconnect.py DISPLAY_NUMBER [COOKIE_FILE]: one X11 connection setup on the display's local
# socket, with the MIT-MAGIC-COOKIE-1 of an Xauthority file or with no authorization at all;
# prints "accepted" or "refused: REASON" (the server's words) and exits 0 or 1.
# xconnect.py --display-of PID: the display number an X server process listens on.
import os, re, socket, struct, sys

if sys.argv[1] == "--display-of":
    inodes = set()
    for fd in os.listdir(f"/proc/{sys.argv[2]}/fd"):
        m = re.match(r"socket:\[(\d+)\]", os.readlink(f"/proc/{sys.argv[2]}/fd/{fd}"))
        if m:
            inodes.add(m.group(1))
    for line in open("/proc/net/unix").read().splitlines()[1:]:
        f = line.split()
        if len(f) >= 8 and f[6] in inodes:
            m = re.search(r"/tmp/\.X11-unix/X(\d+)$", f[7])
            if m:
                print(m.group(1))
                sys.exit(0)
    sys.exit(1)

def cookie_of(path):
    data = open(path, "rb").read()
    fields, i = [], 2
    for _ in range(4):
        n = struct.unpack(">H", data[i:i + 2])[0]
        fields.append(data[i + 2:i + 2 + n])
        i += 2 + n
    return fields[2], fields[3]

def pad(b):
    return b + b"\0" * (-len(b) % 4)

name, data = cookie_of(sys.argv[2]) if len(sys.argv) > 2 else (b"", b"")
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
try:
    s.connect("/tmp/.X11-unix/X" + sys.argv[1])
except OSError:
    s.connect("\0/tmp/.X11-unix/X" + sys.argv[1])
s.sendall(struct.pack("<cxHHHHxx", b"l", 11, 0, len(name), len(data)) + pad(name) + pad(data))
head = s.recv(8)
if head[:1] == b"\x01":
    print("accepted")
    sys.exit(0)
reason = s.recv(head[1] + 64)[:head[1]] if len(head) > 1 else b""
print("refused:", reason.decode("latin-1"))
sys.exit(1)
