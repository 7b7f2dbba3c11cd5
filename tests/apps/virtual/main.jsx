// A virtualized grid (@tanstack/react-virtual): 10,000 rows, of which only
// those in view exist in the DOM, with aria-rowcount and aria-rowindex as an
// accessible grid should have. Sort by a column, filter by text, open a row.
import { useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useVirtualizer } from '@tanstack/react-virtual';

const ROWS = Array.from({ length: 10000 }, (_, i) => ({
  id: i + 1, name: `Order ${String(i + 1).padStart(5, '0')}`, total: ((i * 7919) % 1000) + 1,
}));

function App() {
  const [sort, setSort] = useState({ key: 'id', dir: 1 });
  const [filter, setFilter] = useState('');
  const [opened, setOpened] = useState('No order open');
  const rows = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const list = f ? ROWS.filter((r) => r.name.toLowerCase().includes(f)) : ROWS.slice();
    return list.sort((a, b) => (a[sort.key] < b[sort.key] ? -1 : a[sort.key] > b[sort.key] ? 1 : 0) * sort.dir);
  }, [sort, filter]);
  const scroller = useRef(null);
  const v = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 32, overscan: 5 });
  const header = (key, label) => (
    <div className="cell" role="columnheader" aria-sort={sort.key === key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none'}>
      <button data-act={`sort-${key}`} onClick={() => setSort((s) => ({ key, dir: s.key === key ? -s.dir : 1 }))}>{label}</button>
    </div>
  );
  return (
    <main>
      <h1>Orders</h1>
      <label>Filter <input data-act="filter" value={filter} onChange={(e) => setFilter(e.target.value)} /></label>
      <div role="grid" aria-label="Orders" aria-rowcount={rows.length + 1}>
        <div role="row" aria-rowindex={1} className="head">{header('name', 'Name')}{header('total', 'Total')}<div className="cell" role="columnheader">Action</div></div>
        <div ref={scroller} className="scroller">
          <div role="rowgroup" style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map((item) => {
              const r = rows[item.index];
              return (
                <div key={r.id} role="row" aria-rowindex={item.index + 2} className="row"
                  style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, width: '100%' }}>
                  <div role="gridcell" className="cell">{r.name}</div>
                  <div role="gridcell" className="cell">${r.total}</div>
                  <div role="gridcell" className="cell"><button data-act={`open-${r.id}`} onClick={() => setOpened(`Opened ${r.name}`)}>Open {r.name}</button></div>
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <p role="status" id="status">{opened}</p>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
