// Context menus (right-click on a node or on the board): a fixed list of
// .context-menu-item buttons that closes on any click elsewhere or Escape.

let open = null;

let returnFocus = null;

export function closeMenu() {
  if (!open) return;
  const hadFocus = open.contains(document.activeElement);
  open.remove();
  open = null;
  // A menu opened from the keyboard gives the focus back where it was.
  if (hadFocus && returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
  returnFocus = null;
}

// The menu's controls in order (items, swatches, colour fields).
const controls = () => (open ? [...open.querySelectorAll("button, input")] : []);

// showMenu opens a menu at a screen point (keyboard: opened from the
// keyboard, so its first item takes the focus). items: {label, run} or "-" for a
// separator, {label, info:true} for a line that only closes the menu, or
// {label, swatches: [{name, color, run}]} for a row of colour buttons
// (each named "Set <label> to <name>"), or {label, color, run} for a custom
// colour row: the native colour picker and a #rrggbb field (Enter applies)
// side by side, so the keyboard can set any colour too.
export function showMenu(x, y, items, { keyboard = false } = {}) {
  closeMenu();
  const menu = document.createElement("div");
  menu.className = "context-menu";
  menu.setAttribute("role", "menu");
  for (const item of items) {
    if (item === "-") {
      menu.append(Object.assign(document.createElement("div"), { className: "context-menu-separator" }));
      continue;
    }
    if (item.swatches) {
      menu.append(swatchRow(item));
      continue;
    }
    if (item.color !== undefined) {
      menu.append(customColorRow(item));
      continue;
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "context-menu-item" + (item.info ? " info" : "");
    b.setAttribute("role", "menuitem");
    b.textContent = item.label;
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      closeMenu();
      if (item.run) item.run();
    });
    menu.append(b);
  }
  // Kept on screen, as if 240 px wide and 32 px per item.
  const h = items.length * 32;
  menu.style.left = Math.max(0, Math.min(x, innerWidth - 240)) + "px";
  menu.style.top = Math.max(0, Math.min(y, innerHeight - h)) + "px";
  document.body.append(menu);
  open = menu;
  // From the keyboard (Shift+F10, the menu key) the first item takes the
  // focus; the arrow keys walk the menu, Enter acts, Escape closes.
  if (keyboard) {
    returnFocus = document.activeElement;
    controls()[0]?.focus();
  }
}

// labelledRow is a menu row of controls named by item.label.
function labelledRow(item, className) {
  const row = document.createElement("div");
  row.className = className;
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", item.label);
  const label = document.createElement("span");
  label.className = "context-menu-swatches-label";
  label.textContent = item.label;
  row.append(label);
  return row;
}

function swatchRow(item) {
  const row = labelledRow(item, "context-menu-swatches");
  for (const sw of item.swatches) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "context-menu-swatch";
    b.setAttribute("role", "menuitem");
    const name = `Set ${item.label.toLowerCase()} to ${sw.name}`;
    b.setAttribute("aria-label", name);
    b.title = name;
    b.style.setProperty("--swatch", sw.color);
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      closeMenu();
      sw.run();
    });
    row.append(b);
  }
  return row;
}

// hexColor is s as #rrggbb (#rgb and a missing # accepted), or "".
export function hexColor(s) {
  let v = String(s).trim().toLowerCase();
  if (!v.startsWith("#")) v = "#" + v;
  if (/^#[0-9a-f]{3}$/.test(v)) v = "#" + [...v.slice(1)].map((c) => c + c).join("");
  return /^#[0-9a-f]{6}$/.test(v) ? v : "";
}

function customColorRow(item) {
  const row = labelledRow(item, "context-menu-swatches context-menu-custom");
  const current = hexColor(item.color || "") || "#3b82f6";
  const pick = Object.assign(document.createElement("input"), { type: "color", value: current, className: "context-menu-color" });
  pick.setAttribute("aria-label", item.label);
  pick.title = item.label;
  pick.addEventListener("change", () => { closeMenu(); item.run(pick.value); });
  const hex = Object.assign(document.createElement("input"), { type: "text", value: item.color ? current : "", placeholder: "#rrggbb",
    maxLength: 7, spellcheck: false, className: "context-menu-hex" });
  hex.setAttribute("aria-label", item.label + " (hex, Enter applies)");
  hex.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const v = hexColor(hex.value);
    if (!v) { hex.setAttribute("aria-invalid", "true"); return; }
    closeMenu();
    item.run(v);
  });
  hex.addEventListener("input", () => hex.removeAttribute("aria-invalid"));
  row.append(pick, hex);
  return row;
}

addEventListener("pointerdown", (e) => { if (open && !open.contains(e.target)) closeMenu(); }, true);
addEventListener("keydown", (e) => {
  if (!open) return;
  // The menu's keys are the menu's: the board does not see them.
  if (e.key === "Escape") { closeMenu(); e.stopImmediatePropagation(); return; }
  if (!open.contains(document.activeElement)) return;
  e.stopImmediatePropagation();
  const list = controls(), i = list.indexOf(document.activeElement);
  const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: list.length - 1 }[e.key];
  if (to === undefined || document.activeElement.type === "text" && (e.key === "Home" || e.key === "End")) return;
  e.preventDefault();
  list[(to + list.length) % list.length]?.focus();
});
