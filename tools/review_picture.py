#!/usr/bin/env python3
"""Take the guide's picture of a round's review on the web (``docs/images/web-review.png``).

Records two rounds between Ann and Bob in a temporary games file, serves Connect 4's web
pages over it on loopback (the real server, with the solver core that runs here), opens the
review of the 40-move round in Debian's Chromium (``tests/helpers/browser.py``: headless, nothing
downloaded), moves the pointer over move 3 on the graph, and saves the window.  Needs the
test extra and ``.ci/install-browser-deps``::

    .venv/bin/python tools/review_picture.py docs/images/web-review.png
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests" / "helpers"))
sys.path.insert(0, str(REPOSITORY))

import browser  # noqa: E402
from records_data import ANN, BOB, record_match, ticking  # noqa: E402
from web_client import Console  # noqa: E402

from gamelib.web.address import Address  # noqa: E402
from gamelib.web.server import WebServer  # noqa: E402
from sensehat_c4.records import Recorder  # noqa: E402
from sensehat_c4.web.pages import pages  # noqa: E402

ROUNDS = ("1122334", "4344744673633212217741661367327622115555")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    from selenium.webdriver.common.action_chains import ActionChains

    with tempfile.TemporaryDirectory() as work:
        db = Path(work) / "games.db"
        record_match(Recorder(db, clock=ticking()), list(ROUNDS), sides=(ANN, BOB))
        with WebServer(Console(), Address("127.0.0.1", 0), pages=[pages(db)]) as server:
            driver = browser.start(phone=False)
            try:
                driver.get(f"http://127.0.0.1:{server.port}/review/2")
                deadline = time.monotonic() + 120
                while driver.find_element("id", "graph-box").get_attribute("hidden") is not None:
                    if time.monotonic() > deadline:
                        raise SystemExit("no review within 120 s")
                    time.sleep(0.1)
                bar = driver.find_element("css selector", '#graph [data-ply="3"]')
                ActionChains(driver).move_to_element(bar).perform()
                time.sleep(0.5)
                driver.save_screenshot(str(args.out))
            finally:
                driver.quit()
    print(f"{args.out}: the review of round 2, move 3 chosen on the graph")


if __name__ == "__main__":
    main()
