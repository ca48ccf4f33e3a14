"""How well a camera process keeps up: the stretches where its view was degraded.

A camera process reads frames as they come and drops those it is too late for (a busy core, a
stalled source). A few dropped frames change nothing; a stretch may hide a card or chips moving,
or show them only after the shoe's reads, so the engine is told (``ViewDegraded``) and judges the
hands of that stretch as unverified. The view is degraded when:

- frames were dropped: one gap of ``GAP_S`` or more between the frames read, or more than
  ``SHARE`` of the frames of the last ``WINDOW_S`` seconds missing;
- the detector is behind: its observations of a frame come ``LAG_S`` or more after the camera
  took it;
- the source is stale: no frame came for ``GAP_S`` (a camera that stopped delivering; told
  while it lasts, not only when frames come back).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from engine.observations import ViewDegraded

GAP_S = 0.3
"""One gap this long without a frame read degrades the view."""
WINDOW_S = 1.0
SHARE = 0.5
"""More than this share of the frames of the last ``WINDOW_S`` dropped degrades the view."""
LAG_S = 0.5
"""Observations this late after their frame degrade the view."""


class ViewQuality:
    """Feed the times of the frames the worker reads (and how late their observations were);
    get a ``ViewDegraded`` as soon as the view is degraded, again every ``WINDOW_S`` while it
    stays so, and once more when it ends (``ended``; each from the stretch's start: the engine
    takes the longest). ``dropped`` counts every frame the camera made that the worker never saw."""

    def __init__(self, camera: str) -> None:
        self.camera = camera
        self.dropped = 0
        self._last_ns: int | None = None
        self._interval_ns: int | None = None
        self._window: deque[tuple[int, int]] = deque()
        """(frame time, frames dropped before it) over the last ``WINDOW_S``."""
        self._since_ns: int | None = None
        self._stretch_dropped = 0
        self._stretch_lag_ns = 0
        self._stale_ns = 0
        self._told_ns: int | None = None

    def add(self, ts_ns: int, lag_ns: int = 0) -> ViewDegraded | None:
        """A frame taken at ``ts_ns`` whose observations were ready ``lag_ns`` after it."""
        last, self._last_ns = self._last_ns, ts_ns
        if last is None or ts_ns <= last:
            return None
        gap = ts_ns - last
        if self._interval_ns is None or gap < self._interval_ns:
            self._interval_ns = gap  # the camera's frame interval: the shortest gap seen
        dropped = max(0, round(gap / self._interval_ns) - 1)
        self.dropped += dropped
        self._window.append((ts_ns, dropped))
        while self._window and ts_ns - self._window[0][0] > WINDOW_S * 1e9:
            self._window.popleft()
        missing = sum(d for _, d in self._window)
        share = missing / (missing + len(self._window))
        late = lag_ns >= LAG_S * 1e9
        if gap >= GAP_S * 1e9 or (share > SHARE and missing > 1) or late:
            self._stretch_dropped += dropped
            self._stretch_lag_ns = max(self._stretch_lag_ns, lag_ns if late else 0)
            return self._degraded(since_ns=last, now_ns=ts_ns)
        if self._since_ns is None:
            return None
        told = replace(self._report(last), ended=True)
        self._since_ns, self._stretch_dropped, self._told_ns = None, 0, None
        self._stretch_lag_ns = self._stale_ns = 0
        return told

    @property
    def degraded(self) -> str:
        """Why the view is degraded now ("" while it is clear)."""
        if self._since_ns is None or self._last_ns is None:
            return ""
        return self._report(max(self._last_ns, self._since_ns)).reason

    def idle(self, now_ns: int) -> ViewDegraded | None:
        """No frame came by ``now_ns`` (same clock as the frames' times): once that is
        ``GAP_S`` after the last frame, the view is stale until frames come back."""
        last = self._last_ns
        if last is None or now_ns - last < GAP_S * 1e9:
            return None
        self._stale_ns = now_ns - last
        return self._degraded(since_ns=last, now_ns=now_ns)

    def _degraded(self, since_ns: int, now_ns: int) -> ViewDegraded | None:
        if self._since_ns is None:
            self._since_ns = since_ns
        if self._told_ns is None or now_ns - self._told_ns >= WINDOW_S * 1e9:
            self._told_ns = now_ns
            return self._report(now_ns)
        return None

    def _report(self, until_ns: int) -> ViewDegraded:
        assert self._since_ns is not None
        span_s = (until_ns - self._since_ns) / 1e9
        why = [f"{self._stretch_dropped} frames dropped in {span_s:.1f} s"]
        if self._stretch_lag_ns:
            why.append(f"the detector up to {self._stretch_lag_ns / 1e9:.1f} s behind the camera")
        if self._stale_ns:
            why.append(f"no frame from the camera for {self._stale_ns / 1e9:.1f} s")
        return ViewDegraded(
            ts_ns=until_ns,
            camera=self.camera,
            since_ns=self._since_ns,
            frames_dropped=self._stretch_dropped,
            reason="; ".join(why),
        )
