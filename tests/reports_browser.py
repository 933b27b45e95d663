"""Headless Chromium driven over the DevTools protocol on a pipe, with the standard library only.

``--remote-debugging-pipe`` makes Chromium read NUL-terminated JSON commands on fd 3 and write
replies and events on fd 4, so no websocket client and no Playwright is needed. Used by the
report tests and benchmarks/report_speed.py; ``png_stats`` checks a screenshot with numpy alone.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]


def chromium_binary() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class CdpError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page. Use as a context manager."""

    def __init__(self, width: int = 1400, height: int = 1000, timeout: float = 30.0):
        binary = chromium_binary()
        if binary is None:
            raise FileNotFoundError("chromium is not installed")
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="orvena-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # in the child: the pipe ends at the fds Chromium expects
            r, w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile.name}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds would close 3 and 4 again after preexec_fn; the pipes themselves are
            # not inheritable (PEP 446), so only the two duplicates reach Chromium.
            preexec_fn=fds, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.page("Page.enable")
        self.page("Runtime.enable")
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    # --- protocol --------------------------------------------------------------------------
    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self, method: str, params: dict | None = None) -> dict:
        return self.call(method, params, self.session)

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise CdpError("chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, method: str) -> dict[str, Any]:
        for i, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(i)
        while True:
            event = self._read()
            if event.get("method") == method:
                return event
            self.events.append(event)

    # --- what the tests do -----------------------------------------------------------------
    def open(self, path: Path, fragment: str = "") -> float:
        """Load a file afresh and wait for its load event; returns the seconds it took."""
        # From a blank page, so that opening the same file with another fragment is a real load.
        self.page("Page.navigate", {"url": "about:blank"})
        self.wait_event("Page.loadEventFired")
        started = time.perf_counter()
        url = path.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        self.page("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")
        return time.perf_counter() - started

    def js(self, expression: str) -> Any:
        out = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True})
        if "exceptionDetails" in out:
            raise CdpError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        """Poll until the expression is truthy (for work the page does in a later task, such as
        a hashchange handler); returns its value."""
        deadline = time.monotonic() + timeout
        while not (value := self.js(expression)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)
        return value

    def click(self, selector: str) -> None:
        """A real mouse click at the middle of the element (scrolled into view first)."""
        box = self.js(f"""(() => {{ const el = document.querySelector({json.dumps(selector)});
            if (!el) return null; el.scrollIntoView({{block: "center"}});
            const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];
            }})()""")
        if box is None:
            raise CdpError(f"nothing matches {selector}")
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})

    def choose(self, selector: str, value: str) -> None:
        """Pick an option of a <select> as a user does: the value changes, then "change" fires."""
        self.js(f"""(() => {{ const el = document.querySelector({json.dumps(selector)});
            el.value = {json.dumps(value)};
            el.dispatchEvent(new Event("change", {{bubbles: true}})); }})()""")

    def screenshot(self) -> bytes:
        # optimizeForSpeed: faster to encode, and its rows use the cheap-to-undo "up" filter.
        shot = self.page("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        return base64.b64decode(shot["data"])

    def exceptions(self) -> list[str]:
        return [json.dumps(e["params"]["exceptionDetails"])[:500] for e in self.events
                if e.get("method") == "Runtime.exceptionThrown"]

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (CdpError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class PngStats:
    width: int
    height: int
    colours: int  # distinct colours
    background_share: float  # share of pixels of the most common colour


def png_stats(data: bytes) -> PngStats:
    """Size and colour statistics of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, colour_type = header[:4]
    if depth != 8 or colour_type not in (2, 6):
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour_type})")
    bpp = 3 if colour_type == 2 else 4
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, width * bpp + 1)
    pixels = np.zeros((height, width * bpp), np.uint8)
    previous = np.zeros(width * bpp, np.uint8)
    for y in range(height):
        pixels[y] = previous = _unfilter(int(rows[y, 0]), rows[y, 1:], previous, bpp)
    rgb = pixels.reshape(height, width, bpp)[:, :, :3].reshape(-1, 3).astype(np.uint32)
    # One integer per colour: sorting integers is far faster than sorting rows.
    _, counts = np.unique(rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2], return_counts=True)
    return PngStats(width, height, len(counts), float(counts.max() / counts.sum()))


def _unfilter(kind: int, line: np.ndarray, previous: np.ndarray, bpp: int) -> np.ndarray:
    """One scanline with its PNG filter undone (uint8 arithmetic wraps like the spec's mod 256)."""
    if kind == 0:
        return line.copy()
    if kind == 2:
        return line + previous
    if kind == 1:
        return np.cumsum(line.reshape(-1, bpp), axis=0, dtype=np.uint8).reshape(-1)
    out = line.astype(np.int32)
    up = previous.astype(np.int32)
    for i in range(len(out)):  # average and Paeth depend on the byte just decoded
        left = out[i - bpp] if i >= bpp else 0
        corner = up[i - bpp] if i >= bpp else 0
        if kind == 3:
            out[i] = (out[i] + (left + up[i]) // 2) & 0xFF
        else:
            p = left + up[i] - corner
            pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - corner)
            pred = left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner
            out[i] = (out[i] + pred) & 0xFF
    return out.astype(np.uint8)


if __name__ == "__main__":
    # A screenshot of one view of a report (how docs/img/report.png is made):
    #   python tests/reports_browser.py report.html out.png "model=tiny&status=failed" "#browser"
    import sys

    page, out, fragment, scroll = (sys.argv[1:] + ["", ""])[:4]
    with Chromium() as browser:
        browser.open(Path(page), fragment)
        if "open=" not in fragment and "status=" in fragment:
            browser.click("#list .row")  # open the first run the filters leave
        if scroll:
            browser.js(f"document.querySelector({json.dumps(scroll)}).scrollIntoView()")
        Path(out).write_bytes(browser.screenshot())
        print(f"wrote {out}: {png_stats(Path(out).read_bytes())}")
