// The snapshots panel (web-client.md §14): save the board under a name,
// restore or delete a saved one (each after a confirming second click).
// The board itself changes with the layout the server broadcasts.

// toggleSnapshots opens or closes the panel under anchor. api is the
// page's request function.
export function toggleSnapshots(anchor, api) {
  const open = document.querySelector(".snapshot-panel");
  if (open) { open.remove(); anchor.classList.remove("active"); return; }
  anchor.classList.add("active");
  const panel = document.createElement("div");
  panel.className = "snapshot-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", "Snapshots");
  const r = anchor.getBoundingClientRect();
  panel.style.left = Math.max(8, r.left - 120) + "px";
  panel.style.top = r.bottom + 8 + "px";
  panel.innerHTML = `<div class="snapshot-head"><span>SNAPSHOTS</span>
      <button type="button" class="snapshot-close" aria-label="Close snapshots">×</button></div>
    <div class="snapshot-save"><input class="snapshot-name" placeholder="Snapshot name..." maxlength="80">
      <button type="button" class="snapshot-save-btn" disabled>Save</button></div>
    <div class="snapshot-note">Restoring replaces the canvas; undo brings it back.</div>
    <div class="snapshot-list">Loading...</div>`;
  document.body.append(panel);
  const input = panel.querySelector(".snapshot-name"), save = panel.querySelector(".snapshot-save-btn");
  const list = panel.querySelector(".snapshot-list");
  let snapshots = [];

  const close = () => {
    panel.remove();
    anchor.classList.remove("active");
    removeEventListener("pointerdown", outside, true);
    removeEventListener("keydown", esc);
  };
  const outside = (e) => { if (!panel.contains(e.target) && !anchor.contains(e.target)) close(); };
  const esc = (e) => { if (e.key === "Escape") close(); };
  addEventListener("pointerdown", outside, true);
  addEventListener("keydown", esc);
  panel.querySelector(".snapshot-close").addEventListener("click", close);

  const draw = () => {
    list.replaceChildren();
    if (snapshots.length === 0) { list.textContent = "No snapshots yet. Save one to come back to this board later."; return; }
    for (const s of snapshots) {
      const row = document.createElement("div");
      row.className = "snapshot-row";
      row.dataset.snapshotId = s.id;
      const info = document.createElement("div");
      info.className = "snapshot-info";
      info.innerHTML = `<span class="snapshot-row-name"></span><span class="snapshot-meta"></span>`;
      info.firstChild.textContent = s.name;
      info.lastChild.textContent = `${s.nodeCount} ${s.nodeCount === 1 ? "node" : "nodes"} · ${s.edgeCount} ${s.edgeCount === 1 ? "edge" : "edges"} · ${ago(s.createdAt)}`;
      const actions = document.createElement("div");
      actions.className = "snapshot-actions";
      const button = (text, cls, title, run) => {
        const b = document.createElement("button");
        b.type = "button"; b.className = cls; b.textContent = text;
        if (title) b.title = title;
        b.addEventListener("click", run);
        actions.append(b);
        return b;
      };
      const confirm = (label, run) => {
        actions.replaceChildren();
        button(label, "snapshot-confirm", "", run);
        button("Cancel", "snapshot-cancel", "", draw);
      };
      button("Restore", "snapshot-restore", "", () => confirm("Confirm", async () => {
        actions.replaceChildren("Restoring...");
        const res = await api("POST", "/api/canvas/snapshots/" + encodeURIComponent(s.id));
        if (res && res.ok) close(); else draw();
      }));
      button("×", "snapshot-delete", "Delete this snapshot", () => confirm("Delete", async () => {
        const res = await api("DELETE", "/api/canvas/snapshots/" + encodeURIComponent(s.id));
        if (res && res.ok) snapshots = snapshots.filter((x) => x.id !== s.id);
        draw();
      }));
      row.append(info, actions);
      list.append(row);
    }
  };

  const doSave = async () => {
    const name = input.value.trim();
    if (!name) return;
    save.disabled = true;
    save.textContent = "...";
    const res = await api("POST", "/api/canvas/snapshots", { name });
    save.textContent = "Save";
    if (res && res.ok) {
      const body = await res.json();
      snapshots = [body.snapshot, ...snapshots];
      input.value = "";
      draw();
    }
    save.disabled = !input.value.trim();
  };
  input.addEventListener("input", () => { save.disabled = !input.value.trim(); });
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") doSave(); });
  save.addEventListener("click", doSave);
  input.focus();

  api("GET", "/api/canvas/snapshots?all=true").then(async (res) => {
    if (!res || !res.ok) { list.textContent = "Could not load snapshots."; return; }
    const body = await res.json();
    snapshots = (Array.isArray(body) ? body : body.snapshots || [])
      .slice().sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
    draw();
  });
}

function ago(iso) {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return Math.floor(s / 60) + "m ago";
  if (s < 86400) return Math.floor(s / 3600) + "h ago";
  return Math.floor(s / 86400) + "d ago";
}
