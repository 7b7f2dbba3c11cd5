// Controls built from divs and spans: listeners, cursor:pointer, no roles.
const columns = { Todo: ['Write report', 'Call Ana'], Doing: ['Fix login bug'], Done: ['Ship v1'] };
/** Cards dropped onto the archive: shown there, no longer on the board. */
const archived = [];
const status = (s) => { document.getElementById('status').textContent = s; };
let undo = [];

function render() {
  const cols = document.getElementById('cols');
  cols.textContent = '';
  for (const [col, cards] of Object.entries(columns)) {
    const c = document.createElement('div');
    c.className = 'col';
    c.dataset.col = col;
    const h = document.createElement('div');
    h.className = 'col-title';
    h.textContent = col;
    h.dataset.act = `col-${col}`;
    h.addEventListener('click', () => status(`${col}: ${columns[col].length} cards`));
    c.append(h);
    dropZone(c, (title, from) => (from === col ? status(`${title} stays in ${col}`) : moveCard(title, from, col)));
    cards.forEach((title) => {
      const card = document.createElement('div');
      card.className = 'card';
      card.dataset.card = title;
      // HTML5 drag and drop, as boards built on it do: the card carries its title.
      card.draggable = true;
      card.addEventListener('dragstart', (e) => {
        e.dataTransfer.setData('text/plain', title);
        e.dataTransfer.effectAllowed = 'move';
        card.classList.add('dragging');
      });
      card.addEventListener('dragend', () => card.classList.remove('dragging'));
      const t = document.createElement('span');
      t.className = 'title';
      t.textContent = title;
      t.dataset.act = `open-${title}`;
      t.addEventListener('click', () => status(`Opened ${title}`));
      const tools = document.createElement('span');
      const next = nextColumn(col);
      if (next) {
        const move = document.createElement('span');
        move.className = 'move';
        move.textContent = `→ ${next}`;
        move.title = `Move to ${next}`;
        move.dataset.act = `move-${title}`;
        move.addEventListener('click', () => moveCard(title, col, next));
        tools.append(move);
      }
      const x = document.createElement('span');
      x.className = 'x';
      x.textContent = '×';
      x.dataset.act = `delete-${title}`;
      x.onclick = () => { columns[col] = columns[col].filter((k) => k !== title); render(); status(`Deleted ${title}`); };
      tools.append(x);
      card.append(t, tools);
      c.append(card);
    });
    cols.append(c);
  }
  cols.append(archiveColumn());
}

/**
 * A column that only takes drops: its heading is plain text and what it
 * holds is read-only, so when it is empty nothing inside it could stand
 * for it as a place to drop onto.
 */
function archiveColumn() {
  const c = document.createElement('div');
  c.className = 'col';
  c.id = 'archive';
  c.dataset.act = 'archive';
  const h = document.createElement('div');
  h.className = 'col-name';
  h.textContent = 'Archive';
  c.append(h);
  for (const title of archived) {
    const a = document.createElement('div');
    a.className = 'archived';
    a.textContent = title;
    c.append(a);
  }
  dropZone(c, (title, from) => {
    columns[from] = columns[from].filter((k) => k !== title);
    archived.push(title);
    render();
    status(`Archived ${title}`);
  });
  return c;
}

/**
 * A column takes a card dropped anywhere on it.
 * @param {HTMLElement} el  @param {(title: string, from: string) => void} take
 */
function dropZone(el, take) {
  el.addEventListener('dragover', (e) => {
    if (!e.dataTransfer.types.includes('text/plain')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    el.classList.add('over');
  });
  el.addEventListener('dragleave', (e) => { if (!el.contains(/** @type {Node} */ (e.relatedTarget))) el.classList.remove('over'); });
  el.addEventListener('drop', (e) => {
    e.preventDefault();
    el.classList.remove('over');
    const title = e.dataTransfer.getData('text/plain');
    const from = Object.keys(columns).find((k) => columns[k].includes(title));
    if (from) take(title, from);
  });
}

function nextColumn(col) {
  const names = Object.keys(columns);
  return names[names.indexOf(col) + 1];
}

function moveCard(title, from, to) {
  undo.push(JSON.stringify(columns));
  columns[from] = columns[from].filter((k) => k !== title);
  columns[to].push(title);
  render();
  status(`Moved ${title} to ${to}`);
}

// A list reordered by a pointer-driven drag, as dnd-kit's sortable lists
// are: nothing happens below 5 px of movement (a click stays a click), the
// item follows the pointer, and the slot under it is read on the next
// animation frame; the drop lands where the pointer comes up.
const priorities = ['Email Ana', 'Book flights', 'Pay rent', 'Water plants'];
const prio = document.getElementById('prio');
let lift = null;

function renderPriorities() {
  prio.textContent = '';
  priorities.forEach((name) => {
    const item = document.createElement('div');
    item.className = 'prio-item';
    item.textContent = name;
    item.setAttribute('role', 'button');
    item.setAttribute('aria-roledescription', 'sortable');
    item.tabIndex = 0;
    item.dataset.act = `prio-${name}`;
    item.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !e.isPrimary) return;
      lift = { name, item, x: e.clientX, y: e.clientY, active: false, over: -1, frame: 0, rects: [] };
    });
    prio.append(item);
  });
}

document.addEventListener('pointermove', (e) => {
  if (!lift) return;
  const dx = e.clientX - lift.x;
  const dy = e.clientY - lift.y;
  if (!lift.active) {
    if (Math.hypot(dx, dy) < 5) return;
    lift.active = true;
    lift.rects = [...prio.children].map((c) => c.getBoundingClientRect());
    lift.item.classList.add('lifted');
  }
  lift.item.style.transform = `translate(${dx}px, ${dy}px)`;
  const { clientX: x, clientY: y } = e;
  const now = lift;
  cancelAnimationFrame(now.frame);
  now.frame = requestAnimationFrame(() => {
    now.over = now.rects.findIndex((r) => x >= r.left && x < r.right && y >= r.top && y < r.bottom);
  });
});
document.addEventListener('pointerup', () => {
  const done = lift;
  lift = null;
  if (!done || !done.active) return;
  cancelAnimationFrame(done.frame);
  if (done.over < 0) {
    renderPriorities();
    status(`${done.name} dropped outside the list`);
    return;
  }
  priorities.splice(priorities.indexOf(done.name), 1);
  priorities.splice(done.over, 0, done.name);
  renderPriorities();
  status(`Moved ${done.name} to position ${done.over + 1}`);
});
document.addEventListener('pointercancel', () => { lift = null; renderPriorities(); });

document.getElementById('new').addEventListener('click', () => {
  document.getElementById('title').focus();
  status('Type a title, then Save card');
});
document.getElementById('undo').addEventListener('mousedown', () => {
  const last = undo.pop();
  if (last) Object.assign(columns, JSON.parse(last));
  render();
  status(last ? 'Undone' : 'Nothing to undo');
});
document.getElementById('sort').addEventListener('click', () => document.getElementById('sort-menu').classList.toggle('open'));
for (const item of document.querySelectorAll('.menu-item')) {
  item.addEventListener('click', () => {
    document.getElementById('sort-menu').classList.remove('open');
    for (const k of Object.keys(columns)) columns[k].sort();
    render();
    status(`Sorted ${item.textContent.toLowerCase()}`);
  });
}
document.getElementById('help').addEventListener('pointerdown', () => status('Help: move cards with the arrows'));
for (const tab of document.querySelectorAll('.tab')) {
  tab.addEventListener('click', () => {
    for (const t of document.querySelectorAll('.tab')) t.classList.toggle('on', t === tab);
    status(`${tab.textContent} view`);
  });
}
// A span whose only sign is its listener: no pointer cursor.
document.getElementById('save').addEventListener('click', () => {
  const title = document.getElementById('title').textContent.trim();
  if (!title) { status('A card needs a title'); return; }
  columns.Todo.push(title);
  document.getElementById('title').innerHTML = '&nbsp;';
  render();
  status(`Saved ${title}`);
});
document.getElementById('star').addEventListener('keydown', (e) => { if (e.key === 'Enter') status('Starred'); });
// A delegated listener on the page, as frameworks add: not a control.
document.body.addEventListener('click', () => {});
render();
renderPriorities();
