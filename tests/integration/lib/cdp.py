"""cdp.py -- drives headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe:
commands on fd 3, answers and events on fd 4, each a JSON text ended by a NUL byte), so a test can
click, drag and type in a page with nothing but Chromium and Python's standard library.

    with Browser(profile_dir) as b:
        page = b.open(url)
        page.eval("document.title")
        page.drag(x0, y0, x1, y1)
"""
import fcntl
import json
import os
import subprocess
import time


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, profile, width=1500, height=1000):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # moved out of the way, then put at 3 and 4 in the child (before the fds are closed)
        hi_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 20)
        hi_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 20)
        os.close(to_chrome_r)
        os.close(from_chrome_w)

        def child():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", f"--window-size={width},{height}", "--hide-scrollbars",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=child, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, HOME=profile))
        os.close(hi_r)
        os.close(hi_w)
        self.w = to_chrome_w
        self.r = from_chrome_r
        self.buf = b""
        self.next_id = 0
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise CDPError("no answer from chromium")
            chunk = os.read(self.r, 65536)
            if not chunk:
                raise CDPError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise CDPError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Runtime.enable")
        page.send("Page.enable")
        page.send("Page.navigate", {"url": url})
        page.wait_for("document.readyState === 'complete'")
        return page


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.session = session

    def send(self, method, params=None, timeout=30):
        return self.b.send(method, params, self.session, timeout)

    def eval(self, expr, await_promise=False):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            raise CDPError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expr, timeout=30, what=None):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                v = self.eval(f"!!({expr})")
            except CDPError:
                v = False
            if v:
                return
            time.sleep(0.1)
        raise CDPError(f"timed out waiting for {what or expr}")

    def errors(self):
        """Console errors and uncaught exceptions seen so far."""
        out = []
        for m in self.b.events:
            if m.get("sessionId") != self.session:
                continue
            if m.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(m["params"]["exceptionDetails"])[:300])
            elif m.get("method") == "Runtime.consoleAPICalled" and m["params"]["type"] == "error":
                out.append(json.dumps(m["params"]["args"])[:300])
        return out

    def mouse(self, kind, x, y, buttons=1):
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                               "buttons": buttons, "clickCount": 1})

    def drag(self, x0, y0, x1, y1, steps=5):
        self.mouse("mouseMoved", x0, y0, 0)
        self.mouse("mousePressed", x0, y0)
        for i in range(1, steps + 1):
            self.mouse("mouseMoved", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.mouse("mouseReleased", x1, y1)

    def click(self, x, y):
        self.mouse("mouseMoved", x, y, 0)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)

    def screenshot(self, path):
        import base64
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
