// JSON pointers (the validator's `path`) → places in the editor's text, by walking the JSON syntax
// tree of the document. A pointer to something missing lands on its nearest existing parent.
import { jsonLanguage } from '@codemirror/lang-json';
import { syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

export interface Place {
  from: number;
  to: number;
  /** Whether the whole pointer was found (else `from`/`to` mark the nearest parent). */
  exact: boolean;
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

function values(node: SyntaxNode): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (VALUE_NODES.has(child.name)) found.push(child);
  return found;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Where `pointer` is in the document: a property's name for objects and arrays, else its value. */
export function locate(state: EditorState, pointer: string): Place {
  const doc = state.doc;
  // The whole document's tree: the editor parses in the background, and a long config may not be
  // done yet; then the text is parsed here, in full (milliseconds for a config the API accepts).
  const parsed = syntaxTree(state);
  const root = (parsed.length >= doc.length ? parsed : jsonLanguage.parser.parse(doc.toString())).topNode;
  let node = values(root)[0];
  if (!node) return { from: 0, to: Math.min(doc.length, 1), exact: pointer === '' };
  let key: SyntaxNode | undefined;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
  let exact = true;
  for (const token of tokens) {
    let next: SyntaxNode | undefined;
    let nextKey: SyntaxNode | undefined;
    if (node.name === 'Object') {
      for (let property = node.firstChild; property; property = property.nextSibling) {
        if (property.name !== 'Property') continue;
        const name = property.getChild('PropertyName');
        if (!name) continue;
        let text: string;
        try {
          text = JSON.parse(doc.sliceString(name.from, name.to)) as string;
        } catch {
          continue;
        }
        if (text === token) {
          nextKey = name;
          next = values(property)[0];
          break;
        }
      }
    } else if (node.name === 'Array' && /^\d+$/.test(token)) {
      next = values(node)[Number(token)];
    }
    if (!next) {
      // Found the key but not its value (typing in progress): the key is the place.
      if (nextKey) key = nextKey;
      exact = false;
      break;
    }
    node = next;
    key = nextKey;
  }
  const container = node.name === 'Object' || node.name === 'Array';
  if (key && (container || !exact)) return { from: key.from, to: key.to, exact };
  // An object or array item without a key: its opening bracket, not the whole block.
  if (container) return { from: node.from, to: node.from + 1, exact };
  return { from: node.from, to: node.to, exact };
}
