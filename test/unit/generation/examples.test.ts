// The example configs shipped for the README and docs/ are valid, and match the test fixture they came from.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const dir = new URL('../../../schemas/examples/', import.meta.url);

describe('schemas/examples', () => {
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    it(`${file} is a valid schema config`, () => {
      const result = validateConfig(JSON.parse(fs.readFileSync(new URL(file, dir), 'utf8')));
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
    });
  }

  it('blog.json is the blog fixture', () => {
    expect(JSON.parse(fs.readFileSync(new URL('blog.json', dir), 'utf8'))).toEqual(blogConfig());
  });
});
