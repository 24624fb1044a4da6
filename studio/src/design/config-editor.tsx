// The config editor: CodeMirror 6 with JSON, completion and hover docs from the schema-config JSON
// Schema (codemirror-json-schema), syntax errors from the JSON parser, and every error and warning
// of the validate endpoint (debounced by the linter) at its JSON pointer.
import { autocompletion } from '@codemirror/autocomplete';
import { json, jsonLanguage, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, hoverTooltip } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { jsonCompletion, jsonSchemaHover, stateExtensions } from 'codemirror-json-schema';
import { useEffect, useRef } from 'preact/hooks';
import schema from '../../../schemas/schema-config.v1.json';
import type { ValidationIssue, ValidationResult } from '../api.ts';
import { locate } from './pointers.ts';

/** What the editor learnt about its text: a syntax error, or the validator's answer for the parsed config. */
export type Checked = { syntaxError: string } | { config: unknown; result: ValidationResult };

export interface ConfigEditorProps {
  text: string;
  onText: (text: string) => void;
  /** Asks the validate endpoint; undefined when it could not answer (the error is shown elsewhere). */
  validate: (config: unknown) => Promise<ValidationResult | undefined>;
  onChecked: (checked: Checked) => void;
  /** The editor's view, for "go to problem" links. */
  onView: (view: EditorView) => void;
  describedBy: string;
}

/**
 * The schema as the completion and hover library reads it, its `$ref`s inlined: its draft-07
 * resolver (json-schema-library) does not follow a `$ref` inside a schema reached through another
 * `$ref`, such as `$defs/entity` → `$defs/field`. The schema has no recursive reference.
 */
function inlineRefs(node: unknown, defs: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, defs, seen));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...siblings } = node as Record<string, unknown>;
  const inlined = Object.fromEntries(Object.entries(siblings).flatMap(([key, value]) => (key === '$defs' ? [] : [[key, inlineRefs(value, defs, seen)]])));
  if (typeof $ref !== 'string' || !$ref.startsWith('#/$defs/')) return inlined;
  const name = $ref.slice('#/$defs/'.length);
  if (seen.includes(name)) throw new Error(`the schema refers to ${name} recursively`);
  return { ...(inlineRefs(defs[name], defs, [...seen, name]) as object), ...inlined };
}
const editorSchema = inlineRefs(schema, schema.$defs) as Parameters<typeof stateExtensions>[0];

/** Milliseconds of quiet typing before the config is sent to the validator. */
const VALIDATE_DELAY_MS = 400;

function diagnostic(view: EditorView, issue: ValidationIssue, severity: 'error' | 'warning'): Diagnostic {
  const place = locate(view.state, issue.path);
  return { from: place.from, to: place.to, severity, source: 'sds validate', message: `${issue.path || '/'}: ${issue.message}` };
}

export function ConfigEditor({ text, onText, validate, onChecked, onView, describedBy }: ConfigEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  // The latest callbacks, read by the long-lived CodeMirror extensions.
  const latest = useRef({ onText, validate, onChecked });
  latest.current = { onText, validate, onChecked };

  useEffect(() => {
    const serverLint = linter(
      async (editor) => {
        const source = editor.state.doc.toString();
        let config: unknown;
        try {
          config = JSON.parse(source);
        } catch (error) {
          latest.current.onChecked({ syntaxError: (error as Error).message });
          return [];
        }
        const result = await latest.current.validate(config);
        // Typed on while the request ran: a later run answers for the newer text.
        if (!result || editor.state.doc.toString() !== source) return [];
        latest.current.onChecked({ config, result });
        return [...result.errors.map((issue) => diagnostic(editor, issue, 'error')), ...result.warnings.map((issue) => diagnostic(editor, issue, 'warning'))];
      },
      { delay: VALIDATE_DELAY_MS },
    );
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          basicSetup,
          json(),
          linter(jsonParseLinter(), { delay: VALIDATE_DELAY_MS }),
          serverLint,
          lintGutter(),
          autocompletion({ activateOnTyping: true }),
          jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
          hoverTooltip(jsonSchemaHover()),
          stateExtensions(editorSchema),
          EditorView.cspNonce.of(document.querySelector('meta[name=sds-style-nonce]')?.getAttribute('content') ?? ''),
          EditorView.contentAttributes.of({ 'aria-label': 'Schema config (JSON)', 'aria-describedby': describedBy }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onText(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    onView(editor);
    return () => editor.destroy();
  }, []);

  // Text set from outside (a loaded version, the form view): replace the document.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== text) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }, [text]);

  return <div class="editor" ref={host} data-testid="config-editor" />;
}
