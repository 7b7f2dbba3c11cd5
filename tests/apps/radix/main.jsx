// Radix UI: a dropdown menu with items, a checkbox item, a radio group and a
// submenu, as headless primitives render them. Marks (data-act) are read
// only by the tests.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import * as Menu from '@radix-ui/react-dropdown-menu';

function App() {
  const [status, setStatus] = useState('No action yet');
  const [ruler, setRuler] = useState(true);
  const [zoom, setZoom] = useState('100');
  return (
    <main style={{ padding: 16 }}>
      <h1>Quarterly report</h1>
      <Menu.Root>
        <Menu.Trigger className="trigger" data-act="file">File</Menu.Trigger>
        <Menu.Portal>
          <Menu.Content className="menu" sideOffset={4}>
            <Menu.Item className="item" data-act="new" onSelect={() => setStatus('New document')}>New</Menu.Item>
            <Menu.Item className="item" data-act="duplicate" onSelect={() => setStatus('Duplicated')}>Duplicate</Menu.Item>
            <Menu.Item className="item" data-act="rename" disabled>Rename</Menu.Item>
            <Menu.Separator />
            <Menu.CheckboxItem className="item" data-act="ruler" checked={ruler} onCheckedChange={setRuler}>Show ruler</Menu.CheckboxItem>
            <Menu.RadioGroup value={zoom} onValueChange={setZoom}>
              <Menu.RadioItem className="item" value="100" data-act="zoom-100">Zoom 100%</Menu.RadioItem>
              <Menu.RadioItem className="item" value="200" data-act="zoom-200">Zoom 200%</Menu.RadioItem>
            </Menu.RadioGroup>
            <Menu.Sub>
              <Menu.SubTrigger className="item" data-act="share">Share</Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent className="menu">
                  <Menu.Item className="item" data-act="email" onSelect={() => setStatus('Shared by email')}>Email link</Menu.Item>
                  <Menu.Item className="item" data-act="copy" onSelect={() => setStatus('Link copied')}>Copy link</Menu.Item>
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <p>Revenue grew in every region this quarter.</p>
      <p role="status" id="status">{status}; ruler {ruler ? 'on' : 'off'}; zoom {zoom}%</p>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
