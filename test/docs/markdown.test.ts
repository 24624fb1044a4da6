// The reading of Markdown the docs tests rely on: a link checker that passes everything would hide broken pages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchors, brokenLinks, extractBlocks } from './markdown.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-markdown-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

describe('anchors', () => {
  it.each([
    ['punctuation dropped, spaces as dashes', '## 7. Rows in a browser', ['7-rows-in-a-browser']],
    ['inline code keeps its text', '## `sds init` and --merge', ['sds-init-and---merge']],
    ['a dash between words becomes two', '# sds — Synthetic Data Service', ['sds--synthetic-data-service']],
    ['repeats numbered', '## Files\n## Files', ['files', 'files-1']],
    ['not in code blocks', '```sh\n# a comment\n```\n## Real', ['real']],
  ])('%s', (_, markdown, want) => {
    expect([...anchors(markdown)]).toEqual(want);
  });
});

describe('brokenLinks', () => {
  write('README.md', '# Top\n\n[a page](docs/a.md), [its part](docs/a.md#part), [here](#top), [site](https://example.com/x)\n');
  write('docs/a.md', '# A\n\n## Part\n\n[back](../README.md#top) ![shot](a.png) `[not a link](nowhere.md)`\n\n```sh\necho "[no](nowhere.md)"\n```\n');
  write('docs/a.png', '');
  write('docs/b.md', '# B\n\n[gone](missing.md) and [no part](a.md#whole)\n');

  it('passes links to files and headings that exist, outside code', () => {
    expect(brokenLinks(root, 'README.md')).toEqual([]);
    expect(brokenLinks(root, 'docs/a.md')).toEqual([]);
  });

  it('names a missing file and an anchor no heading makes', () => {
    expect(brokenLinks(root, 'docs/b.md')).toEqual(['docs/b.md:3 missing.md: no such file', 'docs/b.md:3 a.md#whole: no heading makes #whole']);
  });
});

describe('extractBlocks', () => {
  it('takes fenced blocks with a language and their not-run reason; output fences are not code', () => {
    const markdown = 'x\n\n<!-- not run: needs Docker -->\n```sh\ndocker compose up\n```\n\n```\noutput\n```\n\n```json\n{}\n```\n';
    expect(extractBlocks(markdown, 'p.md')).toEqual([
      { page: 'p.md', line: 4, language: 'sh', code: 'docker compose up\n', notRun: 'needs Docker' },
      { page: 'p.md', line: 12, language: 'json', code: '{}\n' },
    ]);
  });
});
