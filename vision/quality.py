"""How well a camera process keeps up: the stretches where its view was degraded.

A camera process reads frames as they come and drops those it is too late for (a busy core, a
stalled source). A few dropped frames change nothing; a stretch where many are missing (one gap
of ``GAP_S`` or more, or more than ``SHARE`` of the frames of the last ``WINDOW_S`` seconds) may
hide a card or chips moving, so the engine is told (``ViewDegraded``) and judges the hands of
that stretch as unverified.
"""

from __future__ import annotations

from collections import deque

from engine.observations import ViewDegraded

GAP_S = 0.3
"""One gap this long without a frame read degrades the view."""
WINDOW_S = 1.0
SHARE = 0.5
"""More than this share of the frames of the last ``WINDOW_S`` dropped degrades the view."""


class ViewQuality:
    """Feed the times of the frames the worker reads; get a ``ViewDegraded`` as soon as the view
    is degraded, again every ``WINDOW_S`` while it stays so, and once more when it ends (each
    from the stretch's start: the engine takes the longest)."""

    def __init__(self, camera: str) -> None:
        self.camera = camera
        self._last_ns: int | None = None
        self._interval_ns: int | None = None
        self._window: deque[tuple[int, int]] = deque()
        """(frame time, frames dropped before it) over the last ``WINDOW_S``."""
        self._since_ns: int | None = None
        self._dropped = 0
        self._told_ns: int | None = None

    def add(self, ts_ns: int) -> ViewDegraded | None:
        last, self._last_ns = self._last_ns, ts_ns
        if last is None or ts_ns <= last:
            return None
        gap = ts_ns - last
        if self._interval_ns is None or gap < self._interval_ns:
            self._interval_ns = gap  # the camera's frame interval: the shortest gap seen
        dropped = max(0, round(gap / self._interval_ns) - 1)
        self._window.append((ts_ns, dropped))
        while self._window and ts_ns - self._window[0][0] > WINDOW_S * 1e9:
            self._window.popleft()
        missing = sum(d for _, d in self._window)
        share = missing / (missing + len(self._window))
        degraded = gap >= GAP_S * 1e9 or (share > SHARE and missing > 1)
        if degraded:
            if self._since_ns is None:
                self._since_ns = last
            self._dropped += dropped
            if self._told_ns is None or ts_ns - self._told_ns >= WINDOW_S * 1e9:
                self._told_ns = ts_ns
                return self._stretch(ts_ns)
            return None
        if self._since_ns is None:
            return None
        told = self._stretch(last)
        self._since_ns, self._dropped, self._told_ns = None, 0, None
        return told

    def _stretch(self, until_ns: int) -> ViewDegraded:
        assert self._since_ns is not None
        span_s = (until_ns - self._since_ns) / 1e9
        return ViewDegraded(
            ts_ns=until_ns,
            camera=self.camera,
            since_ns=self._since_ns,
            frames_dropped=self._dropped,
            reason=f"{self._dropped} frames dropped in {span_s:.1f} s",
        )
