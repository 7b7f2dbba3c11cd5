// Controls built from divs and spans: listeners, cursor:pointer, no roles.
const columns = { Todo: ['Write report', 'Call Ana'], Doing: ['Fix login bug'], Done: ['Ship v1'] };
const status = (s) => { document.getElementById('status').textContent = s; };
let undo = [];

function render() {
  const cols = document.getElementById('cols');
  cols.textContent = '';
  for (const [col, cards] of Object.entries(columns)) {
    const c = document.createElement('div');
    c.className = 'col';
    const h = document.createElement('div');
    h.style.fontWeight = 'bold';
    h.textContent = col;
    c.append(h);
    cards.forEach((title) => {
      const card = document.createElement('div');
      card.className = 'card';
      card.dataset.card = title;
      const t = document.createElement('span');
      t.textContent = title;
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
