// A database sds has never seen (held out: no learn code was tuned on it): a lending library of
// authors, books, members, loans and fines, built here on both engines with skewed and few-valued
// numbers, categories, nulls, a strongly correlated pair, date orders inside a row and after the
// parent, a lookup, heavy-tailed fan-out and a nullable reference. Learned, generated in memory and
// scored by sds fidelity against the issue's "Done when": column shapes ≥ 0.90, strongly correlated
// pairs ≥ 0.85, cardinality ≥ 0.90, row counts within 5%, every always-kept date order kept, and at
// most 1% of real people or emails reproduced.
import { afterAll, describe, expect, it } from 'vitest';
import { learnDatabase } from '../../../src/learn/learn-database.ts';
import { fidelityReport } from '../../../src/learn/fidelity-report.ts';
import { generate } from '../../helpers/generate-in-memory.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const targets = await dialectTargets();
const SLOW = 240_000;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const FIRST = ['Ada', 'Bram', 'Cleo', 'Dov', 'Edda', 'Finn', 'Gala', 'Hugo', 'Ines', 'Jori', 'Kaia', 'Lev'];
const LAST = ['Marsh', 'Nolan', 'Okafor', 'Prieto', 'Quist', 'Rourke', 'Sato', 'Thorne', 'Ueda', 'Vance'];
const GENRES = ['Fiction', 'Mystery', 'History', 'Science', 'Poetry', 'Children'];

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

interface Library {
  authors: unknown[][];
  books: unknown[][];
  members: unknown[][];
  loans: unknown[][];
  fines: unknown[][];
}

function library(): Library {
  const next = random(2027);
  const pick = <T>(weighted: [T, number][]) => {
    let u = next();
    for (const [value, weight] of weighted) if ((u -= weight) < 0) return value;
    return weighted.at(-1)![0];
  };
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const authors = Array.from({ length: 150 }, (_, i) => [i + 1, `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`, 1900 + Math.floor(next() ** 0.5 * 100)]);
  const books: unknown[][] = [];
  for (const [author] of authors) {
    // Heavy tail: most authors have one or two books, a few have dozens.
    const count = Math.max(1, Math.floor(0.6 / (next() + 0.025)));
    for (let j = 0; j < count; j++) {
      const pages = Math.round(80 + Math.exp(next() + next() + next()) * 40);
      // Weight follows pages closely (ρ near 1): paper plus a little binding noise.
      const weight = Math.round(pages * 1.6 + 40 + next() * 30);
      const price = pick([[9.99, 0.45], [14.99, 0.35], [24.99, 0.15], [39.99, 0.05]]);
      const published = day(Date.UTC(1950, 0, 1) + Math.floor(next() ** 0.4 * 26_000) * 86_400_000);
      books.push([books.length + 1, author, 1 + Math.floor(next() ** 1.5 * GENRES.length), pages, weight, price, published]);
    }
  }
  const members = Array.from({ length: 400 }, (_, i) => {
    const [first, last] = [FIRST[i % FIRST.length]!, LAST[Math.floor(i / FIRST.length) % LAST.length]!];
    // Domains: two common, one held by 4 rows only (k − 1: never copied).
    const domain = i < 4 ? 'rare-domain.test' : pick([['post.test', 0.6], ['inbox.test', 0.4]]);
    const local = next() < 0.7 ? `${first}.${last}` : `${first[0]}${last}`;
    const joined = stamp(Date.UTC(2019, 0, 1) + Math.floor(next() * 1400 * 86_400) * 1000);
    const tier = pick([['standard', 0.7], ['student', 0.2], ['senior', 0.1]]);
    return [i + 1, first, last, `${local.toLowerCase()}${i}@${domain}`, tier, joined];
  });
  const loans: unknown[][] = [];
  for (const member of members) {
    const count = Math.floor(0.4 / (next() + 0.03));
    const joinedMs = Date.parse(`${String(member[5]).replace(' ', 'T')}Z`);
    for (let j = 0; j < count; j++) {
      const loanedMs = joinedMs + Math.floor((1 + next() * 300) * 86_400) * 1000;
      // Returned 1 to 40 days later, or not yet (null).
      const returned = next() < 0.12 ? null : stamp(loanedMs + Math.floor((1 + next() ** 2 * 39) * 86_400) * 1000);
      loans.push([loans.length + 1, member[0], 1 + Math.floor(next() ** 2 * books.length), stamp(loanedMs), returned]);
    }
  }
  // Fines: a few loans; a third waived with no member charged (a nullable reference).
  const fines: unknown[][] = [];
  for (const loan of loans) {
    if (next() > 0.25) continue;
    const daysLate = 1 + Math.floor(next() ** 2 * 30);
    fines.push([fines.length + 1, loan[0], next() < 0.33 ? null : loan[1], daysLate, Math.round(daysLate * 0.25 * 100) / 100 + pick([[0, 0.8], [1, 0.2]])]);
  }
  return { authors, books, members, loans, fines };
}

const literal = (value: unknown) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value)}'`);

async function insert(inspector: Inspector, table: string, rows: unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 300) await inspector.query(`INSERT INTO ${table} VALUES ${rows.slice(i, i + 300).map((row) => `(${row.map(literal).join(', ')})`).join(', ')}`);
}

async function createLibrary(target: DialectTarget, data: Library): Promise<{ namespace: string; inspector: Inspector }> {
  const connection = await openTarget(target);
  const namespace = connection.track(uniqueNamespace('learnfit_library'));
  const inspector = await openInspector(target);
  cleanups.push(async () => {
    await inspector.close();
    await connection.cleanup();
  });
  await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${target.dialect.quoteIdentifier(namespace)}`);
  const q = (name: string) => `${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier(name)}`;
  const timestamp = target.name === 'postgres' ? 'TIMESTAMP' : 'DATETIME';
  await inspector.query(`CREATE TABLE ${q('genres')} (id INTEGER PRIMARY KEY, label VARCHAR(30) NOT NULL)`);
  await inspector.query(`CREATE TABLE ${q('authors')} (id INTEGER PRIMARY KEY, name VARCHAR(80) NOT NULL, born INTEGER NOT NULL)`);
  await inspector.query(
    `CREATE TABLE ${q('books')} (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES ${q('authors')} (id), genre_id INTEGER NOT NULL REFERENCES ${q('genres')} (id), ` +
      `pages INTEGER NOT NULL, weight_grams INTEGER NOT NULL, price NUMERIC(6,2) NOT NULL, published DATE NOT NULL)`,
  );
  await inspector.query(`CREATE TABLE ${q('members')} (id INTEGER PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL, email VARCHAR(120) NOT NULL, tier VARCHAR(20) NOT NULL, joined_at ${timestamp} NOT NULL)`);
  await inspector.query(
    `CREATE TABLE ${q('loans')} (id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES ${q('members')} (id), book_id INTEGER NOT NULL REFERENCES ${q('books')} (id), ` +
      `loaned_at ${timestamp} NOT NULL, returned_at ${timestamp} NULL)`,
  );
  await inspector.query(
    `CREATE TABLE ${q('fines')} (id INTEGER PRIMARY KEY, loan_id INTEGER NOT NULL REFERENCES ${q('loans')} (id), member_id INTEGER NULL REFERENCES ${q('members')} (id), ` +
      `days_late INTEGER NOT NULL, amount NUMERIC(8,2) NOT NULL)`,
  );
  await insert(inspector, q('genres'), GENRES.map((label, i) => [i + 1, label]));
  await insert(inspector, q('authors'), data.authors);
  await insert(inspector, q('books'), data.books);
  await insert(inspector, q('members'), data.members);
  await insert(inspector, q('loans'), data.loans);
  await insert(inspector, q('fines'), data.fines);
  return { namespace, inspector };
}

for (const target of targets) {
  describe(`learning a library sds has never seen, on ${target.name}`, () => {
    it('scores the issue’s targets: shapes ≥ 0.90, correlated pairs ≥ 0.85, cardinality ≥ 0.90, rows within 5%, orders kept, ≤ 1% of people copied', async () => {
      const data = library();
      const { namespace, inspector } = await createLibrary(target, data);
      const { config, report } = await learnDatabase(target.url, { namespace });
      const text = JSON.stringify(config) + JSON.stringify(report);
      // Privacy: the domain of 4 rows, the names and the local parts stay in the database.
      expect(text).not.toContain('rare-domain');
      for (const name of [...FIRST, ...LAST]) expect(text).not.toContain(`"${name}"`);
      expect(text).not.toMatch(/[a-z]+\.[a-z]+\d+@/);
      const members = config.entities.find((entity) => entity.id === 'members')!;
      expect(members.fields.find((field) => field.id === 'email')?.generation?.strategy).toMatchObject({ kind: 'styledText', email: { domains: [{ value: 'post.test' }, { value: 'inbox.test' }], otherDomains: 4 } });
      // The nullable reference: its children per parent and its share of nulls.
      const fineMember = config.entities.find((entity) => entity.id === 'fines')!.fields.find((field) => field.id === 'member_id')!;
      expect(fineMember.references?.fanOut).toMatchObject({ kind: 'empirical', empty: expect.closeTo(data.fines.filter((row) => row[2] === null).length / data.fines.length, 3) });

      const scored = await fidelityReport(config, target.url, { namespace });
      console.log(`${target.name} library fidelity`, JSON.stringify({ overall: scored.overall, columnShapes: scored.columnShapes, pairTrends: scored.pairTrends, cardinality: scored.cardinality, worst: scored.worst.slice(0, 3), pairs: scored.pairs }));
      expect(scored.columnShapes).toBeGreaterThanOrEqual(0.9);
      expect(scored.pairs).toContainEqual(expect.objectContaining({ table: 'books', columns: ['pages', 'weight_grams'] }));
      expect(scored.pairTrends).toBeGreaterThanOrEqual(0.85);
      expect(scored.cardinality).toBeGreaterThanOrEqual(0.9);
      for (const table of scored.tables) expect(Math.abs(table.generatedRows - table.realRows), table.table).toBeLessThanOrEqual(0.05 * table.realRows);
      // Every date order the real rows always keep: returned after loaned, loaned after the member joined.
      expect(report.tables.find((entry) => entry.table === 'loans')?.orderRules).toEqual(
        expect.arrayContaining([expect.objectContaining({ column: 'returned_at', after: 'loaned_at' }), expect.objectContaining({ column: 'loaned_at', after: 'member_id.joined_at' })]),
      );
      expect(scored.orderRules).toContainEqual({ table: 'loans', column: 'returned_at', after: 'loaned_at', generatedShare: 1 });
      for (const rule of scored.orderRules) expect(rule.generatedShare, `${rule.table}.${rule.column}`).toBe(1);
      // The order after the parent (sds fidelity checks orders inside a row): every loan after its member joined.
      const run = generate(config);
      const joinedOf = new Map(run.objects('members').map((row) => [row.id, String(row.joined_at)]));
      const loans = run.objects('loans');
      expect(loans.length).toBeGreaterThan(0);
      expect(loans.filter((row) => String(row.loaned_at) < joinedOf.get(row.member_id)!)).toEqual([]);
      // People and emails: at most 1% of generated ones are real ones.
      const realEmails = new Set((await inspector.query(`SELECT email FROM ${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier('members')}`)).map((row) => String(row.email)));
      const madeMembers = run.objects('members');
      const realPeople = new Set(data.members.map((row) => `${row[1]} ${row[2]}`));
      expect(madeMembers.filter((row) => realEmails.has(String(row.email))).length).toBeLessThanOrEqual(0.01 * madeMembers.length);
      expect(madeMembers.filter((row) => realPeople.has(`${row.first_name} ${row.last_name}`)).length).toBeLessThanOrEqual(0.01 * madeMembers.length);
      for (const entry of scored.privacy) expect(entry.realValuesReproduced, `${entry.table}.${entry.column}`).toBeLessThanOrEqual(0.01);
      // Generated emails are in the learned style: the learned domains, or sds's own for the rest.
      const domains = madeMembers.map((row) => String(row.email).split('@')[1]);
      expect(domains.filter((domain) => domain === 'post.test' || domain === 'inbox.test').length / domains.length).toBeGreaterThan(0.95);
    }, SLOW);
  });
}
