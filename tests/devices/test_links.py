"""The real drivers against the simulators over real pseudo-terminals (no mocks)."""

from __future__ import annotations

import contextlib
import os
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from devices.host import HostSession
from devices.link import DeviceLink, describe_open_error
from devices.messages import DeviceKind
from devices.reliable import distance
from devices.sim.device import DeviceSession
from devices.sim.devices import Light, Shoe, Tray
from devices.sim.runner import Faults, PtyDevice, Simulated
from engine.inputs import (
    CardDrawn,
    DeviceHealth,
    DeviceInput,
    LightAcknowledged,
    LightState,
    LinkStatus,
    TrayCounted,
    TrayLid,
)


class Rig:
    """A simulated device on a pty behind a stable symlink, and the host's link to it."""

    def __init__(
        self,
        device: Simulated,
        folder: Path,
        *,
        faults: Faults | None = None,
        keep: int = 256,
        stale_after_s: float = 3.0,
    ) -> None:
        self.device = device
        self.session = DeviceSession(kind=device.kind, device_id=f"SIM-{device.kind}", keep=keep)
        self.sim = PtyDevice(device, self.session, faults=faults, link=folder / "port").start()
        self.inputs: queue.SimpleQueue[DeviceInput] = queue.SimpleQueue()
        self.seen: list[DeviceInput] = []
        host = HostSession(DeviceKind.NAMES[device.kind], device.kind, stale_after_s=stale_after_s)
        self.link = DeviceLink(self.sim.port, host, self.inputs.put, backoff_s=(0.02, 0.2)).start()

    def wait(self, done: Callable[[list[DeviceInput]], bool], timeout_s: float = 15.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not done(self.seen):
            if time.monotonic() > deadline:
                seqs = [c.shoe_seq for c in self.cards()]
                health = [f"{h.status}: {h.message}" for h in self.health()]
                host = self.link.session
                raise AssertionError(
                    f"timed out; cards {seqs}; health {health}; expected "
                    f"{host.receiver.expected}, early {sorted(host.receiver.early)}, device next "
                    f"{self.session.sender.next_seq}, unacked {list(self.session.sender.unacked)}"
                )
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.inputs.get(timeout=0.05))

    def cards(self) -> list[CardDrawn]:
        return [x for x in self.seen if isinstance(x, CardDrawn)]

    def health(self) -> list[DeviceHealth]:
        return [x for x in self.seen if isinstance(x, DeviceHealth)]

    def close(self) -> None:
        self.link.stop()
        self.sim.stop()


@pytest.fixture
def rigs(tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(device: Simulated, **kwargs: Any) -> Rig:
        folder = tmp_path / f"dev{len(made)}"
        folder.mkdir()
        rig = Rig(device, folder, **kwargs)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.close()


def deal(rig: Rig, shoe: Shoe, count: int) -> None:
    for _ in range(count):
        rig.sim.act(lambda now: [m for m in [shoe.draw()] if m is not None])


FAULTS = {
    "clean": Faults(),
    "byte at a time": Faults(byte_at_a_time=True),
    "line noise": Faults(noise=0.3, seed=1),
    "bad crc": Faults(bad_crc=0.2, seed=2),
    "duplicates": Faults(duplicate=0.3, seed=3),
    "out of order": Faults(reorder=0.3, seed=4),
    "dropped bytes": Faults(drop=0.01, seed=5),
    "all at once": Faults(noise=0.1, bad_crc=0.1, duplicate=0.1, reorder=0.1, drop=0.005, seed=6),
}


@pytest.mark.parametrize("faults", FAULTS.values(), ids=FAULTS.keys())
def test_every_card_arrives_once_in_order(rigs: Callable[..., Rig], faults: Faults) -> None:
    shoe = Shoe(seed=11)
    rig = rigs(shoe, faults=faults)
    rig.sim.act(lambda now: [shoe.load()])
    order = list(shoe.cards) if shoe.cards else None
    deal(rig, shoe, 52)
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 52)
    cards = rig.cards()
    assert [c.shoe_seq for c in cards] == list(range(1, 53))
    expected = Shoe(seed=11)
    expected.load()
    assert [c.card for c in cards] == (order or expected.cards)
    assert len({c.card for c in cards}) == 52


def test_the_port_disappears_and_comes_back_without_losing_or_doubling_a_card(
    rigs: Callable[..., Rig],
) -> None:
    shoe = Shoe(seed=12)
    rig = rigs(shoe)
    rig.sim.act(lambda now: [shoe.load()])
    deal(rig, shoe, 10)
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 10)
    rig.sim.disconnect(0.5)
    deal(rig, shoe, 10)  # drawn while the port is gone
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 20)
    assert [c.shoe_seq for c in rig.cards()] == list(range(1, 21))
    statuses = [h.status for h in rig.health()]
    assert LinkStatus.DISCONNECTED in statuses
    assert statuses.count(LinkStatus.CONNECTED) >= 2


def test_a_gap_that_cannot_be_recovered_names_the_missing_sequence_numbers(
    rigs: Callable[..., Rig],
) -> None:
    shoe = Shoe(seed=13)
    rig = rigs(shoe, keep=4)
    rig.sim.act(lambda now: [shoe.load()])  # link seq 0
    deal(rig, shoe, 3)  # link seqs 1..3
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 3)
    rig.sim.disconnect(0.5)
    deal(rig, shoe, 10)  # link seqs 4..13 while down; the shoe keeps only the last 4
    rig.wait(lambda seen: any(h.missing_seqs for h in rig.health()))
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 7)
    lost = next(h for h in rig.health() if h.missing_seqs)
    assert lost.missing_seqs == (4, 5, 6, 7, 8, 9)
    assert "seq 4, 5, 6, 7, 8, 9" in lost.message
    assert [c.shoe_seq for c in rig.cards()] == [1, 2, 3, 10, 11, 12, 13]


def test_light_commands_button_and_the_offline_fail_safe(rigs: Callable[..., Rig]) -> None:
    light = Light(offline_after_ns=1_500_000_000)
    rig = rigs(light)
    rig.wait(lambda seen: any(h.identity for h in rig.health()))
    rig.link.set_light("red", "fast")
    rig.wait(lambda seen: any(isinstance(x, LightState) and x.colour == "red" for x in seen))
    assert "red fast" in light.shown
    rig.sim.act(lambda now: [light.press()])
    rig.wait(lambda seen: any(isinstance(x, LightAcknowledged) for x in seen))
    rig.link.stop()  # the host goes quiet: the light must say so by itself
    deadline = time.monotonic() + 5
    while not light.offline and time.monotonic() < deadline:
        time.sleep(0.02)
    assert light.offline
    assert light.shown[-1] == "blue slow (monitor offline)"


def test_tray_inventory_on_request_and_on_change(rigs: Callable[..., Rig]) -> None:
    tray = Tray(counts={25: 100, 100: 60})
    rig = rigs(tray)
    rig.wait(lambda seen: any(h.identity for h in rig.health()))
    rig.link.request_inventory()
    rig.wait(lambda seen: any(isinstance(x, TrayCounted) and x.requested for x in seen))
    rig.sim.act(lambda now: [tray.move(100, -2), tray.lid(1)])
    rig.wait(lambda seen: any(isinstance(x, TrayLid) for x in seen))
    counted = [x for x in rig.seen if isinstance(x, TrayCounted)]
    assert dict(counted[0].counts) == {25: 100, 100: 60}
    assert dict(counted[-1].counts) == {25: 100, 100: 58} and not counted[-1].requested
    assert next(x for x in rig.seen if isinstance(x, TrayLid)).state == "open"


def test_a_silent_device_goes_stale_then_back(rigs: Callable[..., Rig]) -> None:
    shoe = Shoe(seed=14)
    rig = rigs(shoe, faults=Faults(pause_after=3, pause_s=1.5), stale_after_s=0.4)
    rig.sim.act(lambda now: [shoe.load()])
    rig.wait(lambda seen: any(h.status is LinkStatus.STALE for h in rig.health()))
    deal(rig, shoe, 2)
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 2)
    after = [h.status for h in rig.health()]
    assert after[after.index(LinkStatus.STALE) + 1 :].count(LinkStatus.CONNECTED) >= 1


# --- ports that cannot be opened ------------------------------------------------------------


def _offline(url: str) -> DeviceHealth:
    inputs: queue.SimpleQueue[DeviceInput] = queue.SimpleQueue()
    link = DeviceLink(url, HostSession("shoe", DeviceKind.SHOE), inputs.put).start()
    try:
        health = inputs.get(timeout=5)
    finally:
        link.stop()
    assert isinstance(health, DeviceHealth)
    return health


def test_a_wrong_port_marks_the_device_offline_and_the_others_keep_running(
    rigs: Callable[..., Rig], tmp_path: Path
) -> None:
    shoe = Shoe(seed=15)
    rig = rigs(shoe)
    health = _offline(str(tmp_path / "no-such-port"))
    assert health.status is LinkStatus.OFFLINE
    assert (
        health.message
        == f"{tmp_path / 'no-such-port'}: no such port (check the device path in the configuration)"
    )
    rig.sim.act(lambda now: [shoe.load()])
    deal(rig, shoe, 3)
    rig.wait(lambda seen: len([x for x in seen if isinstance(x, CardDrawn)]) >= 3)


def test_a_busy_port_is_reported_as_busy() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = serial.serial_for_url(path, exclusive=True)
    try:
        health = _offline(path)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    assert health.status is LinkStatus.OFFLINE
    assert health.message == f"{path}: port busy (another program has it open)"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_permission_denied_is_reported() -> None:
    """A child process of another user opens a root-only port, as the service would."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.chmod(path, 0o600)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to 'nobody' and try the port
        try:
            os.setuid(65534)
            try:
                serial.serial_for_url(path, exclusive=True)
                message = "opened"
            except (serial.SerialException, OSError) as exc:
                message = describe_open_error(path, exc)
            os.write(write_end, message.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    message = os.read(read_end, 4096).decode()
    for fd in (read_end, master, slave):
        os.close(fd)
    assert message == f"{path}: permission denied (add the service user to the dialout group)"


def test_a_command_sent_from_the_links_own_thread_goes_out_at_once(
    rigs: Callable[..., Rig],
) -> None:
    """The engine turns the light back to green when the dealer presses its button: that call
    comes from the light link's own thread, inside its sink, and must not wait or deadlock."""
    light = Light()
    rig = rigs(light)

    def sink(item: DeviceInput) -> None:
        rig.inputs.put(item)
        if isinstance(item, LightAcknowledged):
            rig.link.set_light("green", "steady")

    rig.link.sink = sink
    rig.wait(lambda seen: any(h.identity for h in rig.health()))
    rig.link.set_light("red", "fast")
    rig.wait(lambda seen: any(isinstance(x, LightState) and x.colour == "red" for x in seen))
    rig.sim.act(lambda now: [light.press()])
    rig.wait(lambda seen: any(isinstance(x, LightState) and x.colour == "green" for x in seen))
    assert light.shown[-2:] == ["red fast", "green steady"]


def test_a_reading_is_acknowledged_only_once_the_sink_has_taken_it(
    rigs: Callable[..., Rig],
) -> None:
    """The engine's sink journals each reading; the device forgets a reading once acknowledged.
    Acknowledged first, an engine killed between the two loses it for good (the device never
    resends it): the acknowledgement goes out after the sink returns."""
    shoe = Shoe(seed=5)
    rig = rigs(shoe)
    rig.sim.act(lambda now: [shoe.load()])
    rig.wait(lambda seen: any(h.identity for h in rig.health()))
    held: list[bool] = []

    def sink(item: DeviceInput) -> None:
        if isinstance(item, CardDrawn):
            time.sleep(0.3)  # the device has time to take an acknowledgement sent too early
            # the card's frame is this one or a later one (a status frame may go first)
            held.append(any(distance(seq, frame) >= 0 for seq in rig.session.sender.unacked))
        rig.inputs.put(item)

    rig.link.sink = sink
    frame = rig.session.sender.next_seq
    deal(rig, shoe, 1)
    rig.wait(lambda seen: len(rig.cards()) == 1)
    assert held == [True]
    rig.wait(lambda seen: frame not in rig.session.sender.unacked)  # then acknowledged
