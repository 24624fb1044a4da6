// The README's Layout section names every folder of src/ and test/, so it stays true as folders come.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const layout = readme.slice(readme.indexOf('## Layout'));
const folders = (root: string) =>
  fs
    .readdirSync(new URL(`../../${root}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${root}/${entry.name}/`);

describe('README Layout', () => {
  it.each([...folders('src'), ...folders('test')])('describes %s', (folder) => {
    expect(layout).toContain(`\`${folder}\``);
  });
});
