// Tiptap (ProseMirror): a rich-text editor with a formatting toolbar.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useEditor, EditorContent, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

function App() {
  const [saved, setSaved] = useState('Not saved');
  const editor = useEditor({
    extensions: [StarterKit],
    content: '<p>Meeting notes</p>',
    editorProps: { attributes: { 'aria-label': 'Note', 'data-act': 'editor' } },
  });
  const state = useEditorState({ editor, selector: ({ editor: e }) => ({ bold: e.isActive('bold'), italic: e.isActive('italic'), list: e.isActive('bulletList') }) });
  const tool = (label, active, run, act) => (
    <button type="button" className={active ? 'on' : ''} aria-pressed={active} data-act={act} onClick={() => run(editor.chain().focus()).run()}>{label}</button>
  );
  return (
    <main>
      <h1>New note</h1>
      <div className="toolbar" role="toolbar" aria-label="Formatting">
        {tool('Bold', state.bold, (c) => c.toggleBold(), 'bold')}
        {tool('Italic', state.italic, (c) => c.toggleItalic(), 'italic')}
        {tool('Bullet list', state.list, (c) => c.toggleBulletList(), 'list')}
      </div>
      <EditorContent editor={editor} />
      <button type="button" data-act="save" onClick={() => setSaved(`Saved: ${editor.getHTML()}`)}>Save note</button>
      <p role="status" id="status">{saved}</p>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<App />);
