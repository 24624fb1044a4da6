// What the docs tests read from a Markdown page: its fenced code blocks (with their `not run` markers),
// its relative links, and the anchors its headings make (GitHub's rules), so links can be checked.
import fs from 'node:fs';
import path from 'node:path';

export interface Block {
  /** The page, relative to the repository root (`README.md`, `docs/files.md`). */
  page: string;
  line: number;
  language: string;
  code: string;
  /** The reason of its `<!-- not run: … -->` marker, if it has one. */
  notRun?: string;
}

export interface Link {
  line: number;
  target: string;
}

const FENCE = /^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm;

/** The fenced blocks with a language; fences without one show output, not code. */
export function extractBlocks(markdown: string, page: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    if (!match[1]) continue;
    const before = markdown.slice(0, match.index).split('\n');
    const marker = /^<!-- not run: (.+) -->$/.exec(before.at(-2) ?? '');
    blocks.push({ page, line: before.length, language: match[1], code: match[2]!, ...(marker ? { notRun: marker[1]! } : {}) });
  }
  return blocks;
}

/** The page without its code: fenced blocks and inline code spans blanked, lines kept. */
function prose(markdown: string): string {
  return markdown.replace(FENCE, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

/** Links and images whose target is on this site: not `http(s):` or `mailto:`. */
export function extractLinks(markdown: string): Link[] {
  const links: Link[] = [];
  for (const match of prose(markdown).matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)\)/g)) {
    if (/^(https?|mailto):/.test(match[1]!)) continue;
    links.push({ line: markdown.slice(0, match.index).split('\n').length, target: match[1]! });
  }
  return links;
}

/** The anchors of a page's headings, as GitHub makes them: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    // Inline code was blanked above; take the heading's own text back from the page.
    const text = markdown.split('\n')[markdown.slice(0, match.index).split('\n').length - 1]!.replace(/^#+ /, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** The links of a page that lead nowhere: a missing file, or an anchor no heading of the target makes. */
export function brokenLinks(root: string, page: string): string[] {
  const markdown = fs.readFileSync(path.join(root, page), 'utf8');
  const broken: string[] = [];
  for (const { line, target } of extractLinks(markdown)) {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file ? path.join(path.dirname(path.join(root, page)), decodeURIComponent(file)) : path.join(root, page);
    if (!fs.existsSync(resolved)) {
      broken.push(`${page}:${line} ${target}: no such file`);
    } else if (anchor !== undefined && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
      broken.push(`${page}:${line} ${target}: no heading makes #${anchor}`);
    }
  }
  return broken;
}
