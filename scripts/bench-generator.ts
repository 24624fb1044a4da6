// Rows per second of the in-memory generator for 10-field faker-heavy entities, against a bare
// counter-PRNG loop in the same run; the defaults by field id under generator versions 1 (the
// library's default), 2 and 3. Run: npm run bench:generator -- [rows] [batchSize…]
// (default 200000 rows, batches of 1000 and 5000). Large batches stay alive across young-generation
// collections, so they cost GC time: see the batch-size lines, or run node with --max-semi-space-size=64.
// Then version 4's lines sums: invoices whose subtotal sums their lines (made ahead for it) against the
// same tables with the subtotal drawn, in the same run.
import type { SchemaConfig } from '../src/model/config-types.ts';
import { DataGenerator } from '../src/generation/generator.ts';
import { planGeneration, type GeneratorVersion } from '../src/generation/plan.ts';
import { mix } from '../src/generation/random.ts';
import { LocaleWords } from '../src/generation/values/words.ts';
import { answerHelp } from './bench-usage.ts';

answerHelp(`Usage: npm run bench:generator -- [rows] [batchSize…]
Rows per second of the in-memory generator (10-field entities: defaults by field id under generator
versions 1, 2 and 3, explicit faker strategies) against a bare counter-PRNG loop in the same run;
then version 4's lines sums (invoices rows/20, their lines rows/4) against the same tables without them.
  rows        rows per entity (default 200000)
  batchSize…  batch sizes to compare (default 1000 5000)
  --help      this text`);

const ROWS = Number(process.argv[2] ?? 200_000);
const BATCHES = process.argv.length > 3 ? process.argv.slice(3).map(Number) : [1_000, 5_000];
for (const [name, value] of [['rows', ROWS], ...BATCHES.map((batch) => ['batchSize', batch] as const)] as const) {
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`${name} must be a positive integer; got ${String(value)} (see --help)`);
    process.exit(2);
  }
}

type FieldList = SchemaConfig['entities'][number]['fields'];

/** Field ids with realistic defaults: faker locale data and patterns, a unique email, dates. */
const byName: FieldList = [
  { id: 'id', type: 'integer' },
  { id: 'firstName', type: 'string', maxLength: 60 },
  { id: 'lastName', type: 'string', maxLength: 60 },
  { id: 'email', type: 'string', format: 'email', maxLength: 120 },
  { id: 'phone', type: 'string' },
  { id: 'city', type: 'string' },
  { id: 'company', type: 'string' },
  { id: 'jobTitle', type: 'string' },
  { id: 'createdAt', type: 'datetime' },
  { id: 'status', type: 'enum', values: ['active', 'invited', 'suspended'], weights: [8, 1, 1] },
];

/** The same shape through explicit faker strategies (each value a faker call). */
const explicit: FieldList = [
  { id: 'id', type: 'integer' },
  ...(
    [
      ['firstName', 'person.firstName'],
      ['lastName', 'person.lastName'],
      ['email', 'internet.email'],
      ['phone', 'phone.number'],
      ['city', 'location.city'],
      ['company', 'company.name'],
      ['jobTitle', 'person.jobTitle'],
    ] as const
  ).map(([id, method]) => ({ id, type: 'string' as const, generation: { strategy: { kind: 'faker' as const, method } } })),
  { id: 'createdAt', type: 'datetime', generation: { strategy: { kind: 'faker', method: 'date.past' } } },
  { id: 'status', type: 'string', generation: { strategy: { kind: 'faker', method: 'helpers.arrayElement', args: [['active', 'invited', 'suspended']] } } },
];

function config(fields: FieldList): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [{ id: 'users', primaryKey: ['id'], uniqueKeys: [['email']], fields, generation: { rowCount: ROWS, seed: 'bench' } }],
  };
}

/** Rows per second of wall-clock time and of CPU time (the latter steadier on a shared machine). */
interface Rate {
  wall: number;
  cpu: number;
}

function measure(run: () => void): Rate {
  const cpu = process.cpuUsage();
  const started = performance.now();
  run();
  const used = process.cpuUsage(cpu);
  return { wall: ROWS / ((performance.now() - started) / 1000), cpu: ROWS / ((used.user + used.system) / 1e6) };
}

function generate(fields: FieldList, batchSize: number, generatorVersion: GeneratorVersion = 1): Rate {
  const schema = config(fields);
  const generator = new DataGenerator(schema, planGeneration(schema, { referenceDate: '2026-01-01', generatorVersion }));
  return measure(() => {
    let rows = 0;
    for (const batch of generator.rows('users', batchSize)) rows += batch.length;
    if (rows !== ROWS) throw new Error(`expected ${ROWS} rows, got ${rows}`);
  });
}

/** The floor: a bare PRNG picking ten words per row from word lists into row arrays, batched like the generator. */
function baseline(batchSize: number): Rate {
  const words = LocaleWords.of('en');
  const lists = [words.firstNames, words.lastNames, words.countries, words.loremWords, words.colors];
  return measure(() => baselineLoop(batchSize, lists));
}

function baselineLoop(batchSize: number, lists: (readonly string[])[]): void {
  let batch: unknown[][] = [];
  let sink = 0;
  for (let row = 0; row < ROWS; row++) {
    const values: unknown[] = new Array(10);
    for (let field = 0; field < 10; field++) {
      const list = lists[field % lists.length]!;
      values[field] = list[Math.floor((mix(0x1234, field, row, 0) / 4_294_967_296) * list.length)];
    }
    batch.push(values);
    if (batch.length === batchSize) {
      sink += batch.length;
      batch = [];
    }
  }
  if (sink + batch.length !== ROWS) throw new Error('baseline lost rows');
}

const format = (rate: Rate) => `${Math.round(rate.wall).toLocaleString('en-US').padStart(10)} rows/s wall, ${Math.round(rate.cpu).toLocaleString('en-US').padStart(10)} rows/CPU-s`;
const ratio = (base: Rate, rate: Rate) => `${(base.cpu / rate.cpu).toFixed(0)}× the baseline's CPU time`;
for (const version of [1, 2, 3] as const) generate(byName.slice(0, 4), 1_000, version); // warm-up: JIT and locale data
console.log(`${ROWS.toLocaleString('en-US')} rows per run, node ${process.version}`);
for (const batchSize of BATCHES) {
  const base = baseline(batchSize);
  const named = generate(byName, batchSize);
  const two = generate(byName, batchSize, 2);
  const three = generate(byName, batchSize, 3);
  const faker = generate(explicit, batchSize);
  console.log(`batches of ${batchSize}:`);
  console.log(`  baseline: bare PRNG picking from word lists ${format(base)}`);
  console.log(`  10 fields, defaults by field id             ${format(named)}  (${ratio(base, named)})`);
  console.log(`  the same, generator version 2 (coherent)    ${format(two)}  (${ratio(base, two)})`);
  console.log(`  the same, generator version 3               ${format(three)}  (${ratio(base, three)})`);
  console.log(`  10 fields, explicit faker strategies        ${format(faker)}  (${ratio(base, faker)})`);
}

/** Invoices and their lines under version 4, the subtotal the sum of the lines unless `drawn`. */
function commerce(drawn: boolean): SchemaConfig {
  const subtotal: FieldList[number] = { id: 'subtotal', type: 'number', precision: 2, ...(drawn ? { generation: { strategy: { kind: 'randomFloat', min: 0, max: 2000 } } } : {}) };
  const entity = (id: string, rowCount: number, fields: FieldList) => ({ id, primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' as const }, ...fields], generation: { rowCount, seed: 'bench' } });
  return {
    formatVersion: 1,
    entities: [
      entity('customers', Math.ceil(ROWS / 100), [{ id: 'first_name', type: 'text' }, { id: 'last_name', type: 'text' }, { id: 'created_at', type: 'datetime' }]),
      entity('products', Math.ceil(ROWS / 400), [{ id: 'name', type: 'text' }, { id: 'list_price', type: 'number', precision: 2 }]),
      entity('invoices', Math.ceil(ROWS / 20), [{ id: 'customer_id', type: 'integer', references: { entity: 'customers', field: 'id' } }, { id: 'status', type: 'text', maxLength: 10 }, { id: 'issued_at', type: 'datetime' }, { id: 'due_at', type: 'datetime' }, subtotal, { id: 'tax', type: 'number', precision: 2 }, { id: 'total', type: 'number', precision: 2 }]),
      entity('invoice_lines', Math.ceil(ROWS / 4), [{ id: 'invoice_id', type: 'integer', references: { entity: 'invoices', field: 'id' } }, { id: 'product_id', type: 'integer', references: { entity: 'products', field: 'id' } }, { id: 'quantity', type: 'integer' }, { id: 'unit_price', type: 'number', precision: 2 }, { id: 'line_total', type: 'number', precision: 2 }, { id: 'created_at', type: 'datetime' }]),
    ],
  };
}

/** Milliseconds of CPU per 1,000 rows of every entity of a commerce config, in plan order. */
function commerceCpu(drawn: boolean): number {
  const schema = commerce(drawn);
  const plan = planGeneration(schema, { referenceDate: '2026-01-01', generatorVersion: 4 });
  const cpu = process.cpuUsage();
  const generator = new DataGenerator(schema, plan);
  let rows = 0;
  for (const entity of plan.entities) for (const batch of generator.rows(entity.id, 1_000)) rows += batch.length;
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / (rows / 1000);
}

commerceCpu(false); // warm-up
console.log('version 4 lines sums (invoices and their lines, every entity in plan order), CPU per 1,000 rows:');
for (let round = 1; round <= 3; round++) {
  const without = commerceCpu(true);
  const summed = commerceCpu(false);
  console.log(`  round ${round}: subtotal drawn ${without.toFixed(2)} ms, subtotal = sum of its lines ${summed.toFixed(2)} ms (${(summed / without).toFixed(2)}× the drawn)`);
}
