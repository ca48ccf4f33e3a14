"""The dashboard in a real browser (Debian's chromium, driven by Playwright), served by uvicorn,
fed by the feed thread from the files the engine process writes: log in, see an alert the engine
emits appear without reloading, acknowledge it (the acknowledgement reaches the engine's socket
for the light), open the hand's review, download the review bundle and verify its hashes."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pytest
import uvicorn
from playwright.sync_api import Page, sync_playwright

from dashboard.app import create_app
from dashboard.exports import verify_bundle
from dashboard.feed import Feed
from dashboard.security import hash_password
from dashboard.settings import Settings
from dashboard.store import Role
from dashboard.store.sqlite import SqliteStore
from engine.core import Proved
from engine.inputs import AlertAcknowledged
from engine.table_files import TableFiles
from feltwatch.appliance.config import Config
from feltwatch.appliance.dashboard_main import LightLink
from feltwatch.appliance.engine_main import FanOut
from feltwatch.appliance.files import table_files
from feltwatch.appliance.ipc import ObservationServer
from feltwatch.appliance.live_view import LiveView
from feltwatch.demo.camera_main import NO_IMAGES_TRUTH
from models.image_file import read_image
from tests.dashboard.appliance import (
    CLIP_FPS,
    CLIP_FRAMES,
    PROVED_AFTER_S,
    Table,
    add_clip,
    write_table,
)
from tests.dashboard.conftest import PASSWORD
from tests.present import present

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


ZONE = "Asia/Kathmandu"
"""The casino's time zone the pages show times in (a quarter-hour offset: unlike the browser's)."""


class Served:
    def __init__(self, folder: Path) -> None:
        self.table: Table = write_table(folder)
        add_clip(self.table, self.table.alerts[0][1])
        self.config = Config.model_validate(
            {
                "table": {"name": self.table.name, "sb": 50, "bb": 100},
                "journal": {"dir": str(self.table.journal_dir)},
                "recording": {"dir": str(self.table.media_root)},
            }
        )
        self.engine_inputs: list[object] = []
        self.engine_socket = ObservationServer(
            table_files(self.config).socket, self.engine_inputs.append, print
        ).start()
        self.store = SqliteStore(folder / "dashboard.sqlite3")
        self.store.add_user("sup", hash_password(PASSWORD), Role.SUPERVISOR, 0.0)
        files = TableFiles(
            table=self.table.name,
            journal_dir=self.table.journal_dir,
            media_root=self.table.media_root,
        )
        self.feed = Feed(self.store, [files]).start()
        self.light = LightLink(table_files(self.config).socket)
        settings = Settings(tables={files.table: files}, acknowledge=self.light, timezone=ZONE)
        app = create_app(self.store, settings)
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.feed.stop()
        self.light.sender.stop(drain_s=0)
        self.engine_socket.stop()
        self.store.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    made = Served(tmp_path)
    yield made
    made.close()


@pytest.fixture
def page() -> Iterator[Page]:
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: `make test` installs it (make servers)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        context = browser.new_context(accept_downloads=True)
        yield context.new_page()
        context.close()
        browser.close()


def test_log_in_see_a_new_alert_acknowledge_review_and_download(
    served: Served, page: Page, tmp_path: Path
) -> None:
    page.goto(served.url + "/")
    assert page.url.startswith(served.url + "/login")
    page.fill("input[name=username]", "sup")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + "/")
    page.wait_for_selector("#live.on")  # the live push is connected
    before = page.locator("tr[data-alert]").count()

    # The engine raises one more alert in a hand already on the dashboard (an alert it made
    # from the real hands, at a later event).
    hand, made = served.table.alerts[-1]
    alert = replace(made, seq=10_000, evidence=(10_000,), message="seen again: " + made.message)
    engine = FanOut(served.config, table_files(served.config))
    emitted = time.monotonic()
    engine.alert(Proved(alert=alert, table=served.table.name, input_ts_ns=0), replayed=False)
    row = page.locator("tr[data-alert]", has_text=alert.message)
    row.wait_for(timeout=10_000)
    seen_s = time.monotonic() - emitted
    engine.close()
    print(f"alert emitted -> shown in the browser: {seen_s * 1000:.0f} ms")
    assert page.locator("tr[data-alert]").count() == before + 1
    assert row.get_attribute("data-status") == "open"

    row.locator("button.ack").click()
    page.locator("tr[data-alert][data-status=acknowledged]", has_text=alert.message).wait_for()
    alert_id = row.get_attribute("data-alert")
    deadline = time.monotonic() + 10
    while not any(isinstance(i, AlertAcknowledged) for i in served.engine_inputs):
        assert time.monotonic() < deadline, "the acknowledgement never reached the engine"
        time.sleep(0.05)
    acks = [i for i in served.engine_inputs if isinstance(i, AlertAcknowledged)]
    assert [(a.alert, a.user) for a in acks] == [(alert_id, "sup")]

    row.locator("a.hand-link").click()
    page.wait_for_url(f"{served.url}/hands/{served.table.name}/{hand}")
    assert page.locator("tr[data-alert]", has_text=alert.message).count() == 1
    assert page.locator("table.timeline tr").count() > 10
    # Each event at its wall-clock time in the casino's zone (UTC+5:45 there: its minutes are
    # not the browser's), and its time into the hand.
    started = present(served.store.hand(served.table.name, hand)).started_at
    first = page.locator("table.timeline tbody tr").first
    shown = first.locator("td.time").inner_text()
    assert datetime.fromtimestamp(started, ZoneInfo(ZONE)).strftime("%M:%S") in shown, shown
    assert first.locator("td").nth(2).inner_text() == "+0.0 s"
    with page.expect_download() as info:
        page.click("a.bundle")
    bundle = tmp_path / "bundle.zip"
    info.value.save_as(bundle)
    assert info.value.suggested_filename == f"{served.table.name}-hand-{hand}.zip"
    assert verify_bundle(bundle.read_bytes()) == []

    actions = [(a.user, a.action) for a in served.store.audit_log()]
    assert ("sup", "login") in actions
    assert ("sup", "acknowledge") in actions
    assert ("sup", "export zip") in actions


def test_a_viewer_sees_no_acknowledge_button_and_the_live_table_shows_the_hand(
    served: Served, page: Page
) -> None:
    served.store.add_user("watch", hash_password(PASSWORD), Role.VIEWER, 0.0)
    page.goto(served.url + f"/tables/{served.table.name}")
    page.fill("input[name=username]", "watch")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + f"/tables/{served.table.name}")
    page.locator("[data-seats] tr").first.wait_for()
    last = served.table.hands[-1]
    assert page.locator("[data-hand]").inner_text().startswith(last)
    page.locator("img[data-camera=overhead]").wait_for()
    page.locator("[data-health] tr", has_text="camera:overhead").wait_for()
    page.locator("[data-fill] tr[data-alert]").first.wait_for()
    assert page.locator("button.ack").count() == 0


def test_a_supervisor_acknowledges_then_resolves_several_alerts_at_once(
    served: Served, page: Page
) -> None:
    page.goto(served.url + "/")
    page.fill("input[name=username]", "sup")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + "/")
    assert page.locator("table.open-summary tr[data-open-table]").count() == 1
    rows = page.locator("tr[data-alert][data-status=open]")
    ids = [rows.nth(i).get_attribute("data-alert") for i in range(3)]
    bar = page.locator("[data-bulk]")
    assert bar.is_hidden()
    for alert_id in ids[:2]:
        page.locator(f'tr[data-alert="{alert_id}"] input.pick').check()
    assert bar.locator("[data-picked]").inner_text() == "2"
    bar.locator("button.bulk-ack").click()
    for alert_id in ids[:2]:
        page.locator(f'tr[data-alert="{alert_id}"][data-status=acknowledged]').wait_for()
    assert bar.is_hidden()  # nothing picked any more
    for alert_id in ids:
        page.locator(f'tr[data-alert="{alert_id}"] input.pick').check()
    bar.locator("input.bulk-note").fill("replayed on video: one dealer, retrained")
    bar.locator("button.bulk-resolve").click()
    for alert_id in ids:
        page.locator(f'tr[data-alert="{alert_id}"][data-status=resolved]').wait_for()
    stored = {a.id: (a.status, a.note) for a in served.store.alerts()}
    for alert_id in ids:
        assert alert_id is not None
        assert stored[alert_id] == ("resolved", "replayed on video: one dealer, retrained")
    audited = [(a.user, a.action, a.target) for a in served.store.audit_log()]
    for alert_id in ids[:2]:
        assert ("sup", "acknowledge", f"alert {alert_id}") in audited
    for alert_id in ids:
        assert ("sup", "resolve", f"alert {alert_id}") in audited


def test_a_clip_plays_in_the_page_and_seeks_to_the_alert_and_to_each_event(
    served: Served, page: Page
) -> None:
    hand, _ = served.table.alerts[0]  # the alert with a clip
    page.goto(served.url + f"/hands/{served.table.name}/{hand}")
    page.fill("input[name=username]", "sup")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + f"/hands/{served.table.name}/{hand}")
    video = page.locator("video.player")
    video.wait_for()
    page.wait_for_function("document.querySelector('video.player').readyState >= 1")
    assert page.evaluate("document.querySelector('video.player').duration") == pytest.approx(
        CLIP_FRAMES / CLIP_FPS, abs=0.3
    )
    page.click("button.to-alert")
    at = page.evaluate("document.querySelector('video.player').currentTime")
    assert at == pytest.approx(PROVED_AFTER_S, abs=0.25)
    # An event of the hand within the clip: its row seeks the player to its moment.
    start = float(video.get_attribute("data-start") or 0)
    rows = page.locator("table.timeline tr[data-t]")
    times = [float(rows.nth(i).get_attribute("data-t") or 0) for i in range(rows.count())]
    inside = [i for i, t in enumerate(times) if 0.3 < t - start < CLIP_FRAMES / CLIP_FPS - 0.3]
    assert inside, "no event of the hand within the clip"
    chosen = next((i for i in inside if abs(times[i] - start - at) > 0.5), inside[0])
    rows.nth(chosen).click()
    moved = page.evaluate("document.querySelector('video.player').currentTime")
    assert moved == pytest.approx(times[chosen] - start, abs=0.25)
    looked = [(a.user, a.action) for a in served.store.audit_log()]
    assert ("sup", "view play") in looked


def test_a_key_frame_opens_full_size_and_the_look_is_audited(served: Served, page: Page) -> None:
    hand, _ = served.table.alerts[0]  # the alert with a clip and its key frame
    page.goto(served.url + f"/hands/{served.table.name}/{hand}")
    page.fill("input[name=username]", "sup")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + f"/hands/{served.table.name}/{hand}")
    with page.context.expect_page() as opened:
        page.locator("figcaption a", has_text="key frame, full size").first.click()
    full = opened.value
    full.wait_for_load_state()
    shown = full.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")
    (clip,) = [
        c for a in served.store.alerts() for c in served.store.clips(a.id) if c.keyframe_path
    ]
    key = read_image(served.table.media_root / clip.keyframe_path)
    assert shown == [key.shape[1], key.shape[0]]  # the frame as cut, not a thumbnail
    looked = [(a.user, a.action) for a in served.store.audit_log()]
    assert ("sup", "view keyframe") in looked


def test_a_camera_without_a_picture_says_why(served: Served, page: Page) -> None:
    """A demo reading the renderer's ground truth draws no picture: the live table says so
    where the picture would be, not an empty panel."""
    cameras = TableFiles(table=served.table.name, journal_dir=served.table.journal_dir).cameras_dir
    (cameras / "overhead.jpg").unlink()
    LiveView(cameras, "overhead", None).write(
        np.zeros((0, 0, 3), np.uint8), [], {"fps": 30.0, "no_images": NO_IMAGES_TRUTH}
    )
    page.goto(served.url + f"/tables/{served.table.name}")
    page.fill("input[name=username]", "sup")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(served.url + f"/tables/{served.table.name}")
    said = page.locator("[data-cameras] p.no-camera", has_text="ground truth")
    said.wait_for()  # (once the feed has the camera's figures: it reads them once a second)
    assert said.inner_text() == NO_IMAGES_TRUTH
