// Field defaults (issue 25, item 4) on both databases: the tables sds creates declare them, a runtime
// create that leaves such a field out gets the default instead of "column … is required", and
// generation still gives every row a value of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { dialectTargets, failure, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();

const config: SchemaConfig = {
  formatVersion: 1,
  generationDefaults: { seed: 'defaults', locale: 'en', timezone: 'UTC' },
  entities: [
    {
      id: 'owners',
      primaryKey: ['id'],
      generation: { rowCount: 20 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'name', type: 'string', maxLength: 60 },
        { id: 'status', type: 'enum', values: ['draft', 'active', 'closed'], default: { value: 'draft' } },
        { id: 'createdAt', type: 'datetime', default: { function: 'now' } },
        { id: 'joinedOn', type: 'date', default: { function: 'current_date' } },
        { id: 'token', type: 'uuid', default: { function: 'uuid' } },
        { id: 'visits', type: 'integer', min: 0, max: 1000, default: { value: 0 } },
        { id: 'rating', type: 'number', precision: 2, default: { value: 2.5 } },
        { id: 'verified', type: 'boolean', default: { value: false } },
        { id: 'motto', type: 'text', default: { value: "it's \\ fine" } },
        { id: 'prefs', type: 'json', default: { value: { theme: 'dark' } } },
        { id: 'since', type: 'datetime', default: { value: '2024-01-31T12:00:00Z' } },
      ],
    },
    {
      id: 'events',
      generation: { rowCount: 5 },
      fields: [
        { id: 'name', type: 'string', maxLength: 40 },
        { id: 'kind', type: 'enum', values: ['info', 'alert'], default: { value: 'info' } },
        { id: 'at', type: 'datetime', default: { function: 'now' } },
        { id: 'ref', type: 'uuid', default: { function: 'uuid' } },
      ],
    },
  ],
};

for (const target of DIALECTS) {
  describe(`${target.name}: field defaults`, () => {
    let source: GeneratedSource;
    beforeAll(async () => {
      source = await generateSource(target, config);
    });
    afterAll(() => source?.drop());

    it('a create that leaves out fields with defaults gets the defaults, as the database applies them', async () => {
      const before = Date.now();
      const { row } = await source.create('owners', { name: 'Ada' });
      expect(row).toMatchObject({ id: 21, name: 'Ada', status: 'draft', visits: 0, rating: 2.5, verified: false, motto: "it's \\ fine", prefs: { theme: 'dark' }, since: '2024-01-31T12:00:00.000Z' });
      expect(row.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const created = Date.parse(row.createdAt as string);
      expect(Math.abs(created - before)).toBeLessThan(60_000);
      expect(row.joinedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // A second row draws a new uuid: the function runs per insert.
      expect((await source.create('owners', { name: 'Grace' })).row.token).not.toBe(row.token);
      // Given values win over defaults; a required field without a default is still required.
      expect((await source.create('owners', { name: 'Linus', status: 'active', visits: 3 })).row).toMatchObject({ status: 'active', visits: 3 });
      expect(await failure(source.create('owners', { status: 'active' }))).toEqual({
        status: 400,
        error: 'Invalid row: column "name" is required',
        details: [{ path: '/body/name', message: 'column "name" is required' }],
      });
    });

    it('a table without a primary key answers with the defaults too (MySQL cannot read it back)', async () => {
      const { row } = await source.create('events', { name: 'boot' });
      expect(row).toMatchObject({ name: 'boot', kind: 'info' });
      expect(Math.abs(Date.parse(row.at as string) - Date.now())).toBeLessThan(60_000);
      expect(row.ref).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const stored = (await source.all('events')).find((each) => each.name === 'boot');
      expect(stored).toEqual(row);
    });

    it('generation still makes values of its own for columns with defaults', async () => {
      const rows = (await source.list('owners', 'limit=20&sort=id')).data;
      expect(rows).toHaveLength(20);
      expect(new Set(rows.map((row) => row.token)).size).toBe(20);
      expect(new Set(rows.map((row) => row.status)).size).toBeGreaterThan(1);
    });
  });
}
