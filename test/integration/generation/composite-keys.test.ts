// Keys made of several fields on both databases: a position within its parent (lineNo 1…n per
// visit) loads every planned row under a composite primary key; a composite foreign key is written
// into the schema and every child names an existing parent row; runtime writes that break either
// key answer 409 as single-column ones do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositeConfig } from '../../fixtures/composite-config.ts';
import { dialectTargets, failure, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();

for (const target of DIALECTS) {
  describe(`${target.name}: composite keys`, () => {
    let source: GeneratedSource;
    const sql = async (text: string) => (await source.connection.query(text, [])) as Record<string, unknown>[];
    const table = (name: string) => (target.name === 'postgres' ? `"${source.namespace}"."${name}"` : `\`${source.namespace}\`.\`${name}\``);
    const q = (name: string) => (target.name === 'postgres' ? `"${name}"` : `\`${name}\``);

    beforeAll(async () => {
      source = await generateSource(target, compositeConfig());
    });
    afterAll(() => source?.drop());

    it('loads every planned line, numbered 1…n within its visit and at most 20', async () => {
      const lines = await sql(`SELECT ${q('visitId')} AS v, ${q('lineNo')} AS n FROM ${table('visitLines')} ORDER BY 1, 2`);
      expect(lines).toHaveLength(50);
      const byVisit = new Map<number, number[]>();
      for (const line of lines) byVisit.set(Number(line.v), [...(byVisit.get(Number(line.v)) ?? []), Number(line.n)]);
      for (const numbers of byVisit.values()) expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      expect(Math.max(...lines.map((line) => Number(line.n)))).toBeLessThanOrEqual(20);
    });

    it('writes the composite foreign key and every note names an existing line', async () => {
      const [{ count }] = (await sql(
        `SELECT COUNT(*) AS count FROM ${table('lineNotes')} n JOIN ${table('visitLines')} l ON l.${q('visitId')} = n.${q('visitId')} AND l.${q('lineNo')} = n.${q('lineNo')}`,
      )) as [{ count: unknown }];
      expect(Number(count)).toBe(40);
      const columns = await sql(
        target.name === 'postgres'
          ? `SELECT a.attname AS col FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
             WHERE c.contype = 'f' AND c.conname = 'lineNotes_visitId_lineNo_fkey' AND c.connamespace = '${source.namespace}'::regnamespace ORDER BY a.attname`
          : `SELECT COLUMN_NAME AS col FROM information_schema.KEY_COLUMN_USAGE WHERE CONSTRAINT_SCHEMA = '${source.namespace}'
             AND CONSTRAINT_NAME = 'lineNotes_visitId_lineNo_fkey' AND REFERENCED_TABLE_NAME = 'visitLines' ORDER BY COLUMN_NAME`,
      );
      expect(columns.map((row) => row.col)).toEqual(['lineNo', 'visitId']);
    });

    it('answers 409 for a duplicate composite key and for a note on a line that does not exist', async () => {
      const [line] = await source.all('visitLines');
      expect(await failure(source.create('visitLines', { visitId: line!.visitId, lineNo: line!.lineNo, amount: 3 }))).toEqual({
        status: 409,
        error: 'Unique constraint violated on (visitId, lineNo)',
      });
      expect(await failure(source.create('lineNotes', { id: 9001, visitId: line!.visitId, lineNo: 20, body: 'no such line' }))).toEqual({
        status: 409,
        error: 'Foreign key violated on (visitId, lineNo) referencing visitLines (visitId, lineNo)',
      });
      const created = await source.create('lineNotes', { id: 9002, visitId: line!.visitId, lineNo: line!.lineNo, body: 'on a real line' });
      expect(created.row).toMatchObject({ visitId: line!.visitId, lineNo: line!.lineNo });
    });

    it('populates a composite reference with the referenced row, under the referenced entity\'s name', async () => {
      const page = await source.list('lineNotes', 'populate=visitLines&populate.visitLines.fields=lineNo,amount&fields=id,body&limit=100');
      expect(page.data.length).toBeGreaterThan(30);
      for (const note of page.data) {
        // The key columns are read with it; the row comes from the line they name.
        expect(Object.keys(note)).toEqual(['id', 'body', 'visitId', 'lineNo', 'visitLines']);
        expect(note.visitLines).toEqual({ lineNo: note.lineNo, amount: expect.any(Number) });
      }
      const one = await source.get('lineNotes', String(page.data[0]!.id), 'populate=visitLines');
      expect(one.visitLines).toEqual(expect.objectContaining({ visitId: one.visitId, lineNo: one.lineNo }));
      expect(await failure(source.list('lineNotes', 'populate=visitLine'))).toMatchObject({ status: 400 });
    });

    it('numbers a created line after its visit\'s others when the body leaves lineNo out', async () => {
      const lines = await source.all('visitLines');
      const visitId = lines[0]!.visitId as number;
      const last = Math.max(...lines.filter((line) => line.visitId === visitId).map((line) => line.lineNo as number));
      const { row, id } = await source.create('visitLines', { visitId, amount: 7.5 });
      expect(row).toEqual({ visitId, lineNo: last + 1, amount: 7.5 });
      expect(id).toBe(`${visitId},${last + 1}`);
      const visit = await source.create('visits', { id: 777, reason: 'walk-in' });
      expect((await source.create('visitLines', { visitId: visit.row.id, amount: 1 })).row.lineNo).toBe(1);
      expect((await source.create('visitLines', { visitId: visit.row.id, amount: 2 })).row.lineNo).toBe(2);
      expect(await failure(source.create('visitLines', { amount: 2 }))).toMatchObject({ status: 400 });
    });

    it('cascades a deleted line to its notes through the composite key', async () => {
      const note = (await source.all('lineNotes'))[0]!;
      await source.remove('visitLines', `${note.visitId},${note.lineNo}`);
      const left = await sql(`SELECT COUNT(*) AS count FROM ${table('lineNotes')} WHERE ${q('visitId')} = ${Number(note.visitId)} AND ${q('lineNo')} = ${Number(note.lineNo)}`);
      expect(Number(left[0]!.count)).toBe(0);
    });
  });
}
