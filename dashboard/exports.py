"""Review exports of hands: PHH (the standard hand history, read back by pokerkit), the table
event log (JSONL, v1), a CSV summary, and the review bundle: a ZIP of all of those with the
alerts, the clips and the key frames, and ``manifest.json`` giving the SHA-256 of every file."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dashboard.files import file_inside
from dashboard.store import AlertRow, ClipRow, HandRow, alert_json
from engine.codec import parse_event
from engine.errors import EventError
from engine.events import TableConfig
from engine.phh import dump_histories, from_events, split_hands


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRecord:
    """A hand with everything the review needs."""

    hand: HandRow
    table_config: Mapping[str, Any] | None
    events: Sequence[Mapping[str, Any]]
    alerts: Sequence[AlertRow]
    clips: Sequence[ClipRow]

    @property
    def name(self) -> str:
        return f"{self.hand.table}-hand-{self.hand.hand}"


class ExportError(ValueError):
    pass


def event_log(records: Iterable[HandRecord]) -> str:
    """The hands as the table event log v1: each hand after the ``table`` line it was on."""
    out = []
    table = None
    for record in records:
        if record.table_config is not None and record.table_config != table:
            table = record.table_config
            out.append(json.dumps(table, separators=(",", ":")))
        out += [json.dumps(e, separators=(",", ":")) for e in record.events]
    return "\n".join(out) + ("\n" if out else "")


def phh(records: Iterable[HandRecord]) -> str:
    """The complete hands as PHH (``.phh`` for one hand, ``.phhs`` for several)."""
    histories = []
    for record in records:
        if record.table_config is None or not record.hand.complete:
            continue
        try:
            events = [parse_event(record.table_config), *(parse_event(e) for e in record.events)]
        except EventError as exc:
            raise ExportError(f"{record.name}: {exc.field}: {exc.message}") from None
        for config, hand_events in split_hands(events):
            assert isinstance(config, TableConfig)
            histories.append(from_events(config, hand_events))
    return dump_histories(histories)


CSV_COLUMNS = (
    "table",
    "hand",
    "started_at",
    "ended_at",
    "button",
    "seats",
    "pot_computed",
    "rake_computed",
    "rake_observed",
    "awards_computed",
    "awards_observed",
    "alerts",
    "families",
)


def csv_summary(records: Iterable[HandRecord]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for r in records:
        summary = r.hand.summary or {}
        computed = summary.get("computed") or {}
        observed = summary.get("observed") or {}
        writer.writerow(
            [
                r.hand.table,
                r.hand.hand,
                _iso(r.hand.started_at),
                _iso(r.hand.ended_at),
                r.hand.button,
                " ".join(f"{s}:{v}" for s, v in r.hand.seats.items()),
                sum(p.get("amount", 0) for p in computed.get("pots", [])),
                computed.get("rake", ""),
                "" if observed.get("rake") is None else observed["rake"],
                _seat_amounts(computed.get("awards")),
                _seat_amounts(observed.get("awards")),
                len(r.alerts),
                " ".join(sorted({a.family for a in r.alerts})),
            ]
        )
    return buffer.getvalue()


def _seat_amounts(value: Mapping[str, int] | None) -> str:
    return "" if value is None else " ".join(f"{k}:{v}" for k, v in sorted(value.items()))


def _iso(at: float | None) -> str:
    if at is None:
        return ""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")


def bundle(
    records: Sequence[HandRecord],
    media_roots: Mapping[str, Path | None],
    about: Mapping[str, Any],
) -> bytes:
    """The review bundle as ZIP bytes. ``media_roots``: by table, where its clip paths are
    relative to (none: the clips stay on the table); a clip missing on disk is listed in the
    manifest's ``missing`` instead of failing the bundle."""
    files: dict[str, bytes] = {}
    missing: list[str] = []
    files["hands.phh" if len(records) == 1 else "hands.phhs"] = phh(records).encode()
    files["events.jsonl"] = event_log(records).encode()
    files["summary.csv"] = csv_summary(records).encode()
    alerts = [dict(alert_json(a), body=dict(a.body)) for r in records for a in r.alerts]
    files["alerts.json"] = json.dumps(alerts, indent=1, sort_keys=True).encode()
    for record in records:
        for clip in record.clips:
            for kind, relative in (("clips", clip.clip_path), ("keyframes", clip.keyframe_path)):
                if not relative:
                    continue
                name = f"{kind}/{record.name}/{Path(relative).name}"
                if name in files:
                    continue  # alerts of one moment share a clip
                root = media_roots.get(record.hand.table)
                # a link, or a path out of the recording folder: not ours to send
                source = file_inside(root, relative) if root is not None else None
                try:
                    if source is None:
                        raise FileNotFoundError(relative)
                    files[name] = source.read_bytes()
                except OSError:
                    missing.append(f"{name} ({relative})")
    manifest = {
        "format": "feltwatch-review-bundle/1",
        **about,
        "hands": [{"table": r.hand.table, "hand": r.hand.hand} for r in records],
        "files": {
            name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
            for name, data in sorted(files.items())
        },
        "missing": missing,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            stored = zipfile.ZIP_STORED if name.endswith((".avi", ".jpg")) else None
            archive.writestr(name, data, compress_type=stored)
        archive.writestr("manifest.json", json.dumps(manifest, indent=1, sort_keys=True))
    return out.getvalue()


def verify_bundle(data: bytes) -> list[str]:
    """Problems with a bundle's manifest (empty when every hash matches): for tests and for the
    review team (``python -m dashboard.exports BUNDLE.zip``)."""
    problems = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        names = set(archive.namelist()) - {"manifest.json"}
        for name, entry in manifest["files"].items():
            if name not in names:
                problems.append(f"{name}: listed but not in the bundle")
                continue
            digest = hashlib.sha256(archive.read(name)).hexdigest()
            if digest != entry["sha256"]:
                problems.append(f"{name}: SHA-256 {digest} != manifest {entry['sha256']}")
        problems += [
            f"{name}: in the bundle but not listed" for name in names - set(manifest["files"])
        ]
    return problems


if __name__ == "__main__":
    import sys

    found = verify_bundle(Path(sys.argv[1]).read_bytes())
    print("\n".join(found) or "every file matches the manifest")
    sys.exit(1 if found else 0)
