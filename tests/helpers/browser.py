"""Debian's Chromium, driven by Selenium through Debian's chromedriver: nothing is downloaded.

``Service(executable_path=DRIVER)`` and ``binary_location = CHROMIUM`` name both
programs, so Selenium never runs selenium-manager (which would fetch a browser and a
driver); :func:`start` also makes sure of it (``SE_OFFLINE``, and selenium-manager
replaced by a function that fails).  The browser starts headless, with a fresh
profile, and without the background traffic Chromium makes by itself.
"""
import json
import os
import re
import select
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
         "--metrics-recording-only", "--no-default-browser-check")

AXE = Path(__file__).resolve().parents[2] / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, the accessibility checker, as ``.ci/install-browser-deps`` installs it from the npm registry (a cache
beside the venv: nothing is downloaded at test time)."""
WCAG_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""axe-core's tags of the WCAG 2.1 level AA rules (A and AA, 2.0 and 2.1)."""

PHONE = {"width": 390, "height": 844, "pixelRatio": 2}
"""A phone in portrait (the size of a recent iPhone's viewport)."""


def axe_missing() -> List[str]:
    """What is not there of axe-core (with what :func:`missing` says)."""
    return missing() + ([] if AXE.is_file() else [f"axe-core ({AXE})"])


AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
  .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary}))}))))
  .catch((e) => done([{id: "axe-error", impact: "", help: String(e), nodes: []}]));
"""


def axe_violations(driver: Any) -> List[Dict[str, Any]]:
    """axe-core's violations of WCAG 2.1 AA on the page ``driver`` shows now (loaded into it for the check)."""
    if not driver.execute_script("return typeof axe !== 'undefined';"):
        driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    found: List[Dict[str, Any]] = driver.execute_async_script(AXE_RUN, list(WCAG_AA))
    return found


def axe_report(violations: List[Dict[str, Any]]) -> str:
    """``violations`` one a line, with the elements each is about."""
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}: " + json.dumps(v["nodes"])[:600] for v in violations)


def missing() -> List[str]:
    """What is not there of Chromium, its driver and Selenium."""
    gone = [path for path in (CHROMIUM, DRIVER) if not os.access(path, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        gone.append("selenium (pip install -e '.[test]')")
    return gone


class NoDownloads(RuntimeError):
    pass


def start(*, phone: bool = True, width: Optional[int] = None, height: Optional[int] = None) -> Any:
    """A headless Chromium (a phone-sized window when ``phone``: :data:`PHONE`, or ``width`` x ``height``
    CSS pixels), its profile in a new temporary directory."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common import selenium_manager

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NoDownloads("selenium-manager would have looked for a browser or a driver to download")

    selenium_manager.SeleniumManager.binary_paths = refuse  # type: ignore[method-assign]
    os.environ["SE_OFFLINE"] = "true"
    profile = tempfile.mkdtemp(prefix="c4chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if phone:
        metrics = {**PHONE, **({"width": width} if width else {}), **({"height": height} if height else {})}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    else:
        options.add_argument("--window-size=1200,800")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    quit_driver = driver.quit

    def quit() -> None:
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit
    return driver


LEDS_JS = """
const canvas = document.getElementById("leds");
const ctx = canvas.getContext("2d");
const cell = canvas.width / 8;
const out = [];
for (let i = 0; i < 64; i++) {
  const x = Math.floor((i % 8 + 0.5) * cell), y = Math.floor((Math.floor(i / 8) + 0.5) * cell);
  out.push(Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
}
return out;
"""
OFF = (28, 28, 28)
"""An LED that is off, as the page draws it (a dark grey dot on black)."""


def page_leds(driver: Any) -> List[tuple]:
    """The 64 LEDs as the page draws them (the middle of each dot), off ones as black."""
    return [(0, 0, 0) if tuple(p) == OFF else tuple(p) for p in driver.execute_script(LEDS_JS)]


def read_address(game, timeout=20.0):
    """The page's address, from the line the game prints on standard error."""
    text, deadline = "", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([game.stderr], [], [], 0.2)
        if ready:
            chunk = os.read(game.stderr.fileno(), 4096).decode()
            if not chunk:
                break
            text += chunk
            found = ADDRESS.search(text)
            if found:
                return found.group(1)
    raise AssertionError(f"no web address on standard error: {text!r}")


def wait(driver, test, what, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; page text: "
                                 f"{driver.find_element('tag name', 'body').text!r}")
        time.sleep(0.02)


def text(driver, element):
    return driver.find_element("id", element).text


ADDRESS = re.compile(r"web view on (http://127\.0\.0\.1:\d+/)")
