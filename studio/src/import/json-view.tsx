// A config shown read-only: CodeMirror 6 with JSON highlighting and folding, as the design editor
// shows configs, but nothing can be typed into it (select and copy work).
import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

export function JsonView({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          basicSetup,
          json(),
          EditorState.readOnly.of(true),
          EditorView.cspNonce.of(document.querySelector('meta[name=sds-style-nonce]')?.getAttribute('content') ?? ''),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-readonly': 'true' }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== text) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }, [text]);
  return <div class="editor read-only" ref={host} data-testid={testId} />;
}
