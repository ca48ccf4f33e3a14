// Feltwatch dashboard: live updates (server-sent events), acknowledging and resolving alerts,
// the live table view. No framework; the pages work without it except for live parts.
"use strict";

const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
const role = document.querySelector('meta[name="role"]')?.content || "";
const canAct = role === "supervisor" || role === "admin";

async function api(method, url, body) {
  const headers = { "X-CSRF-Token": csrf };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(url, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) { location.href = "/login?next=" + encodeURIComponent(location.pathname); }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || res.statusText);
  return data;
}

function text(tag, value, cls) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  el.textContent = value === null || value === undefined ? "" : String(value);
  return el;
}

const ZONE = document.querySelector('meta[name="timezone"]')?.content || undefined;
// The casino's time zone when the appliance names one, else the browser's.

function showTimes(root) {
  for (const el of (root || document).querySelectorAll("[data-ts]")) {
    const ts = parseFloat(el.dataset.ts);
    el.textContent = Number.isFinite(ts)
      ? new Date(ts * 1000).toLocaleString(undefined, {timeZone: ZONE})
      : "";
  }
}

// --- alerts -------------------------------------------------------------------------------

function statusText(a) {
  let s = a.status;
  if (a.acknowledged_by) s += " by " + a.acknowledged_by;
  if (a.note) s += ": " + a.note;
  return s;
}

function actions(cell, a) {
  // (a row picked stays picked when its status changes: a live update must not undo a pick)
  const wasPicked = Boolean(cell.querySelector("input.pick")?.checked);
  cell.replaceChildren();
  if (!canAct) return;
  if (a.status !== "resolved") {
    const pick = document.createElement("input");
    pick.type = "checkbox"; pick.className = "pick"; pick.checked = wasPicked;
    pick.setAttribute("aria-label", `select alert ${a.id}`);
    cell.append(pick);
  }
  if (a.status === "open") cell.append(text("button", "Acknowledge", "ack"));
  if (a.status !== "resolved") {
    const note = document.createElement("input");
    note.className = "note"; note.placeholder = "note"; note.maxLength = 4000;
    cell.append(note, text("button", "Resolve", "resolve"));
  }
}

function alertRow(a) {
  const tr = document.createElement("tr");
  tr.className = `alert sev-${a.severity} st-${a.status} new`;
  tr.dataset.alert = a.id;
  tr.dataset.status = a.status;
  const time = text("td", "", "time"); time.dataset.ts = a.raised_at;
  const tableCell = document.createElement("td");
  const tlink = text("a", a.table); tlink.href = `/tables/${encodeURIComponent(a.table)}`;
  tableCell.append(tlink);
  const handCell = document.createElement("td");
  const hlink = text("a", a.hand, "hand-link");
  hlink.href = `/hands/${encodeURIComponent(a.table)}/${encodeURIComponent(a.hand)}`;
  handCell.append(hlink);
  const doCell = text("td", "", "do");
  tr.append(time, text("td", a.severity, "severity"), text("td", a.family, "family"), tableCell,
    handCell, text("td", a.seat), text("td", a.rule, "rule"), text("td", a.message, "message"),
    text("td", statusText(a), "status"), doCell);
  actions(doCell, a);
  showTimes(tr);
  return tr;
}

function updateRow(tr, a) {
  tr.className = `alert sev-${a.severity} st-${a.status}`;
  tr.dataset.status = a.status;
  tr.querySelector(".status").textContent = statusText(a);
  actions(tr.querySelector(".do"), a);
}

function alertLists(table) {
  return [...document.querySelectorAll("[data-alerts]")].filter(
    (el) => !el.dataset.table || el.dataset.table === table);
}

function onAlert(a) {
  for (const list of alertLists(a.table)) {
    if (list.querySelector(`[data-alert="${CSS.escape(a.id)}"]`)) continue;
    list.tBodies[0].prepend(alertRow(a));
  }
  const card = document.querySelector(`[data-table-card="${CSS.escape(a.table)}"] [data-open]`);
  if (card) {
    card.dataset.open = String(parseInt(card.dataset.open || "0", 10) + 1);
    card.textContent = `${card.dataset.open} open alert(s)`;
  }
}

function onAlertStatus(a) {
  for (const tr of document.querySelectorAll(`[data-alert="${CSS.escape(a.id)}"]`)) updateRow(tr, a);
  showPicked();
}

// Several alerts at once: the rows picked, acknowledged or resolved with one note.
function picked() {
  return [...new Set([...document.querySelectorAll("input.pick:checked")].map(
    (box) => box.closest("[data-alert]").dataset.alert))];
}

function showPicked() {
  const ids = picked();
  for (const bar of document.querySelectorAll("[data-bulk]")) {
    bar.hidden = ids.length === 0;
    bar.querySelector("[data-picked]").textContent = String(ids.length);
  }
}

document.addEventListener("change", (ev) => {
  if (ev.target.matches("input.pick")) showPicked();
});

document.addEventListener("click", async (ev) => {
  const button = ev.target.closest("button.bulk-ack, button.bulk-resolve");
  if (!button) return;
  const bar = button.closest("[data-bulk]");
  const resolve = button.classList.contains("bulk-resolve");
  const note = bar.querySelector("input.bulk-note").value.trim();
  if (resolve && !note) { bar.querySelector("input.bulk-note").focus(); return; }
  button.disabled = true;
  try {
    const out = await api("POST", "/api/alerts/bulk",
      { ids: picked(), action: resolve ? "resolve" : "acknowledge", note });
    for (const box of document.querySelectorAll("input.pick:checked")) box.checked = false;
    for (const a of out.done) onAlertStatus(a);
    if (out.skipped.length) {
      bar.hidden = false;
      bar.querySelector("[data-picked]").textContent =
        `${out.skipped.length} not done (${out.skipped[0].why})`;
    }
  } catch (err) {
    bar.querySelector("[data-picked]").textContent = "error: " + err.message;
  } finally {
    button.disabled = false;
  }
});

document.addEventListener("click", async (ev) => {
  const button = ev.target.closest("button.ack, button.resolve");
  if (!button) return;
  const tr = button.closest("[data-alert]");
  const id = tr.dataset.alert;
  button.disabled = true;
  try {
    let a;
    if (button.classList.contains("ack")) {
      a = await api("POST", `/api/alerts/${id}/ack`);
    } else {
      const note = tr.querySelector("input.note").value.trim();
      if (!note) { tr.querySelector("input.note").focus(); button.disabled = false; return; }
      a = await api("POST", `/api/alerts/${id}/resolve`, { note });
    }
    onAlertStatus(a);
  } catch (err) {
    button.disabled = false;
    tr.querySelector(".status").textContent = "error: " + err.message;
  }
});

// --- the review page: clips played in the page, each event's moment ------------------------

function seekPlayers(t, only) {
  // Each player (or ``only``) to the moment ``t`` (the camera's clock, seconds), if its clip
  // holds it.
  for (const video of only ? [only] : document.querySelectorAll("video.player")) {
    const at = t - parseFloat(video.dataset.start);
    if (!(at >= 0) || (Number.isFinite(video.duration) && at > video.duration)) continue;
    video.pause();
    video.currentTime = at;
  }
}

document.addEventListener("click", (ev) => {
  const toAlert = ev.target.closest("button.to-alert");
  if (toAlert) {
    const video = toAlert.closest("figure").querySelector("video.player");
    seekPlayers(parseFloat(video.dataset.alertAt), video);
    return;
  }
  const row = ev.target.closest("table.timeline tr[data-t]");
  if (row && !ev.target.closest("a")) {
    for (const other of document.querySelectorAll("table.timeline tr.at")) other.classList.remove("at");
    row.classList.add("at");
    seekPlayers(parseFloat(row.dataset.t));
  }
});

// --- the live table ----------------------------------------------------------------------

// The figures a person reads (a camera's pipeline, a table's uplink), in words.
const FIGURES = [
  ["fps", (v) => `${v} frames/s`],
  ["detector_fps", (v) => `detector ${v}/s`],
  ["frames_dropped", (v) => `${v} frames dropped`],
  ["observations_waiting", (v) => (v ? `${v} observations waiting` : "")],
  ["observations_lost", (v) => (v ? `${v} observations lost` : "")],
  ["engine_connected", (v) => (v ? "" : "engine not connected")],
  ["recording_error", (v) => (v ? `recording: ${v}` : "")],
  ["queue_bytes", (v) => (v ? `${Math.round(v / 1024)} KiB queued` : "")],
  ["dropped", (v) => (v ? `${v} lines dropped` : "")],
  ["no_images", (v) => v || ""],
];

function healthDetail(detail) {
  return FIGURES.filter(([key]) => key in detail).map(([key, say]) => say(detail[key]))
    .filter(Boolean).join(" · ");
}

const liveTable = document.querySelector("[data-live-table]");
let refreshing = null;

function renderTable(state) {
  const root = liveTable;
  const hand = state.hand;
  const light = root.querySelector("[data-light]");
  light.textContent = state.table.light || "light: unknown";
  light.dataset.colour = (state.table.light || "").split(" ")[0];
  root.querySelector("[data-hand]").textContent = hand ? `${hand.hand}${hand.ended ? " (ended)" : ""}` : "none yet";
  root.querySelector("[data-hand-line]").textContent = hand
    ? `button seat ${hand.button} · ${hand.street}` + (hand.blinds ? ` · blinds ${hand.blinds.sb}/${hand.blinds.bb}` : "")
    : "";
  root.querySelector("[data-board]").textContent = hand ? hand.board.join(" ") : "";
  root.querySelector("[data-pot]").textContent = hand ? hand.pot : "";
  const seats = root.querySelector("[data-seats]");
  seats.replaceChildren(...(hand ? hand.seats : []).map((s) => {
    const tr = document.createElement("tr");
    if (s.folded) tr.className = "folded";
    tr.append(text("td", s.seat + (s.seat === hand.button ? " (D)" : "")), text("td", s.stack),
      text("td", s.bet || ""), text("td", s.cards.join(" "), "cards"),
      text("td", s.shown ? "shown" : s.folded ? "folded" : ""));
    return tr;
  }));
  const health = root.querySelector("[data-health]");
  health.replaceChildren(...state.health.map((h) => {
    const tr = document.createElement("tr");
    tr.className = "health-" + h.status;
    const extra = healthDetail(h.detail || {});
    tr.append(text("td", h.source), text("td", h.status), text("td", [h.message, extra].filter(Boolean).join(" — ")));
    return tr;
  }));
  const cams = root.querySelector("[data-cameras]");
  if (!state.cameras.length) {  // say why there is no picture
    const why = state.health.map((h) => (h.detail || {}).no_images).find(Boolean);
    cams.replaceChildren(text("p", why || "No camera has sent a picture yet.", "no-camera"));
  } else {
    cams.querySelector("p.no-camera")?.remove();
  }
  for (const name of state.cameras) {
    let img = cams.querySelector(`img[data-camera="${CSS.escape(name)}"]`);
    if (!img) {
      img = document.createElement("img");
      img.dataset.camera = name; img.alt = `camera ${name}`; img.className = "camera";
      cams.append(img);
    }
  }
  const list = root.querySelector("[data-fill]");
  if (list && !list.dataset.filled) {
    list.dataset.filled = "1";
    list.tBodies[0].replaceChildren(...state.alerts.map(alertRow));
    for (const tr of list.querySelectorAll("tr.new")) tr.classList.remove("new");
  }
}

async function refreshTable() {
  refreshing = null;
  try {
    renderTable(await api("GET", `/api/tables/${encodeURIComponent(liveTable.dataset.liveTable)}`));
  } catch (err) { /* the next change tries again */ }
}

function scheduleTable() {
  if (liveTable && !refreshing) refreshing = setTimeout(refreshTable, 200);
}

if (liveTable) {
  refreshTable();
  setInterval(() => {
    for (const img of liveTable.querySelectorAll("img[data-camera]")) {
      img.src = `/api/tables/${encodeURIComponent(liveTable.dataset.liveTable)}/cameras/${encodeURIComponent(img.dataset.camera)}.jpg?t=${Date.now()}`;
    }
  }, 1000);
}

// --- the live push -----------------------------------------------------------------------

function connect() {
  if (!csrf) return;  // not logged in
  const live = document.getElementById("live");
  const source = new EventSource("/api/stream");
  source.onopen = () => live && live.classList.add("on");
  source.onerror = () => live && live.classList.remove("on");
  source.addEventListener("alert", (ev) => onAlert(JSON.parse(ev.data)));
  source.addEventListener("alert_status", (ev) => onAlertStatus(JSON.parse(ev.data)));
  for (const kind of ["event", "hand", "health", "light"]) {
    source.addEventListener(kind, (ev) => {
      const change = JSON.parse(ev.data);
      if (kind === "light") {
        const card = document.querySelector(`[data-table-card="${CSS.escape(change.table)}"] [data-light]`);
        if (card) card.textContent = change.light;
      }
      if (liveTable && change.table === liveTable.dataset.liveTable) scheduleTable();
    });
  }
}

// --- admin -------------------------------------------------------------------------------

const addUser = document.querySelector("[data-add-user]");
if (addUser) {
  addUser.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = new FormData(addUser);
    const out = addUser.querySelector("[data-result]");
    try {
      const made = await api("POST", "/api/users", Object.fromEntries(form));
      out.textContent = `added ${made.name} (${made.role})`;
      addUser.reset();
    } catch (err) { out.textContent = "refused: " + err.message; }
  });
}

showTimes();
connect();
