// The SQL script parts of shards (`--shard i/n --format sql`), concatenated in order and loaded with
// the engine's own client, build the namespace the one-process script builds: the same tables, rows,
// keys and foreign keys.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { blogConfig } from '../../fixtures/configs.ts';
import { dialectTargets, openInspector, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';
import { loadScript } from '../../helpers/load-script.ts';

const TARGETS = await dialectTargets();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-shard-scripts-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const config = blogConfig();
const options = { referenceDate: '2024-06-01', rowCounts: { users: 1_200, posts: 3_001 }, parallelMinRows: 1_000, rangeRows: 500, format: 'sql' as const };

for (const target of TARGETS) {
  describe(`${target.name}: shards of an SQL script`, () => {
    it('3 parts concatenated load the same rows as the one-process script', async () => {
      const inspector: Inspector = await openInspector(target);
      const quote = (name: string) => (target.name === 'postgres' ? `"${name}"` : `\`${name}\``);
      const namespaces: string[] = [];
      try {
        const contents: Record<string, string[]> = {};
        for (const label of ['whole', 'shards']) {
          const namespace = uniqueNamespace(`shard_${label}`);
          namespaces.push(namespace);
          const out = path.join(folder, `${target.name}-${label}`);
          const parts: string[] = [];
          if (label === 'whole') parts.push((await generateFiles(config, { ...options, out, dialect: target.name, namespace, workers: 1 })).files[0]!.path);
          else for (const index of [1, 2, 3]) parts.push((await generateFiles(config, { ...options, out, dialect: target.name, namespace, workers: index, shard: { index, count: 3 } })).files[0]!.path);
          const script = path.join(out, 'joined.sql');
          fs.writeFileSync(script, Buffer.concat(parts.map((part) => fs.readFileSync(part))));
          loadScript(target.name, target.url, script);
          for (const table of ['users', 'posts']) {
            const rows = await inspector.query(`SELECT * FROM ${quote(namespace)}.${quote(table)} ORDER BY ${quote('id')}`);
            contents[`${label} ${table}`] = rows.map((row) => JSON.stringify(row));
          }
          // The foreign key from posts to users is built by the last part.
          const keys = await inspector.query(
            `SELECT count(*) AS n FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY' AND table_schema = '${namespace}' AND table_name = 'posts'`,
          );
          expect(Number(keys[0]!.n ?? keys[0]!.N), `${label}: foreign keys of posts`).toBe(1);
        }
        expect(contents['shards users']).toHaveLength(1_200);
        expect(contents['shards posts']).toHaveLength(3_001);
        expect(contents['shards users']).toEqual(contents['whole users']);
        expect(contents['shards posts']).toEqual(contents['whole posts']);
      } finally {
        for (const namespace of namespaces) {
          await inspector.query(target.name === 'postgres' ? `DROP SCHEMA IF EXISTS ${quote(namespace)} CASCADE` : `DROP DATABASE IF EXISTS ${quote(namespace)}`).catch(() => {});
        }
        await inspector.close();
      }
    }, 120_000);
  });
}
