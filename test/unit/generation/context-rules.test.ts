// Generator version 5's rules by table context, without a database: which rule a column gets by its
// name and table (and that version 4 keeps its own), the stages of version 5's lifecycles, the
// domain of a company's name, and files that read a company's name across worker threads.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Entity, Field } from '../../../src/model/config-types.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { companyDomain } from '../../../src/generation/rules/context-makers.ts';
import { lifeWords } from '../../../src/generation/rules/lifecycles.ts';
import { generateFiles } from '../../../src/files/generate-files.ts';
import type { GeneratorVersion } from '../../../src/generation/versions.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';
import { contextSchema } from '../../fixtures/context-schemas.ts';

const text = (id: string, maxLength = 80): Field => ({ id, type: 'string', maxLength });
const ref = (id: string, target: string): Field => ({ id, type: 'integer', references: { entity: target, field: 'id' } });

describe('version 5 chooses a column’s rule by its table', () => {
  const tables: Entity[] = [
    entity('genres', 5, [text('name')]),
    entity('media_types', 5, [text('name')]),
    entity('film_category', 5, [text('category')]),
    entity('tags', 5, [text('tag_name')]),
    entity('patients', 5, [text('name'), text('species', 20)]),
    entity('vet_clinics', 5, [text('clinic_name'), text('website', 120), text('email', 120)]),
    entity('companies', 5, [text('name'), text('domain')]),
    entity('employees', 5, [ref('company_id', 'companies'), text('first_name'), text('work_email', 120)]),
    entity('customers', 5, [ref('clinic_id', 'vet_clinics'), text('name'), text('email', 120)]),
    entity('teams', 5, [text('name'), text('email', 120)]),
    entity('products', 5, [text('name'), text('email', 120)]),
    entity('documents', 5, [text('doc_type'), text('content_type', 120), text('title')]),
    entity('language', 5, [text('name', 20)]),
    entity('Employee', 5, [text('FirstName'), text('Title', 30)]),
  ];
  const cases: [string, { given: [string, string]; want: [string | undefined, string | undefined] }][] = [
    ['a genres table’s name is a genre', { given: ['genres', 'name'], want: ['kind.genre', 'entity.name'] }],
    ['a media types table’s name is a media type', { given: ['media_types', 'name'], want: ['kind.media-type', 'entity.name'] }],
    ['a category column is a category', { given: ['film_category', 'category'], want: ['kind.category', 'text.words'] }],
    ['a tag’s name is a tag', { given: ['tags', 'tag_name'], want: ['kind.tag', 'text.words'] }],
    ['a patient with a species is a pet', { given: ['patients', 'name'], want: ['name.pet', 'entity.name'] }],
    ['a species is a species', { given: ['patients', 'species'], want: ['kind.species', 'text.words'] }],
    ['a clinic’s name is an organisation’s', { given: ['vet_clinics', 'clinic_name'], want: ['name.organisation', 'text.words'] }],
    ['a clinic’s website is its name’s', { given: ['vet_clinics', 'website'], want: ['web.of-company', 'web.url'] }],
    ['a clinic’s email is at its domain', { given: ['vet_clinics', 'email'], want: ['web.of-company', 'person.email'] }],
    ['a company’s domain is its name’s', { given: ['companies', 'domain'], want: ['web.of-company', 'web.domain'] }],
    ['an employee’s work email is at the company', { given: ['employees', 'work_email'], want: ['web.of-company', 'person.email'] }],
    ['a clinic’s customer keeps a person’s email', { given: ['customers', 'email'], want: ['person.email', 'person.email'] }],
    ['a customer’s name is a person’s', { given: ['customers', 'name'], want: ['name.by-table', 'entity.name'] }],
    ['a team with an email is no person', { given: ['teams', 'name'], want: ['name.by-table', 'entity.name'] }],
    ['a document type is one', { given: ['documents', 'doc_type'], want: ['kind.document-type', 'text.words'] }],
    ['a content type is a MIME type', { given: ['documents', 'content_type'], want: ['kind.mime-type', 'text.words'] }],
    ['a title stays a title', { given: ['documents', 'title'], want: ['text.title', 'text.title'] }],
    ['a languages table’s name is a language', { given: ['language', 'name'], want: ['kind.language', 'entity.name'] }],
    ['an employee’s title is a job title, not a headline', { given: ['Employee', 'Title'], want: ['person.title-of-staff', 'text.title'] }],
  ];
  const ruleIn = (version: GeneratorVersion, [table, field]: [string, string]) => {
    const owner = tables.find((candidate) => candidate.id === table)!;
    return ruleOf({ entity: owner, entities: tables, deferred: [], version }, owner.fields.find((candidate) => candidate.id === field)!)?.id;
  };
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(ruleIn(5, given)).toBe(want[0]);
    expect(ruleIn(4, given)).toBe(want[1]);
  });

  it('gives a team with an email two words and a customer a person’s name', () => {
    const run = generate(config(...tables), { generatorVersion: 5 });
    for (const name of run.column('teams', 'name')) expect(String(name).split(' ')).toHaveLength(2);
    const version4 = generate(config(...tables), { generatorVersion: 4 });
    // Version 4 gave the team the person its email was made from.
    expect(version4.column('teams', 'email').some((email, row) => String(email).includes(String(version4.column('teams', 'name')[row]).split(' ')[1]!.toLowerCase()))).toBe(true);
  });
});

describe('version 5’s stages', () => {
  const words = lifeWords(5);
  const cases: [string, string | undefined][] = [
    ['scheduled_at', 'scheduled'],
    ['appointmentDate', 'scheduled'],
    ['scheduled_end', 'scheduled-end'],
    ['checked_in_at', 'checkedin'],
    ['check_in', 'checkedin'],
    ['checkOut', 'checkedout'],
    ['started_at', 'started'],
    ['paid_at', 'paid'],
  ];
  it.each(cases)('%s → %s', (name, want) => expect(words.of(name)?.id).toBe(want));

  it('orders a visit: scheduled < checked in < started < ended < checked out; version 4 knows none of these stages', () => {
    for (const [a, b] of [
      ['ordered', 'scheduled'],
      ['scheduled', 'checkedin'],
      ['checkedin', 'started'],
      ['started', 'ended'],
      ['ended', 'checkedout'],
      ['scheduled', 'scheduled-end'],
    ]) {
      expect(words.before(a!, b!), `${a} < ${b}`).toBe(true);
      expect(words.before(b!, a!), `${b} < ${a}`).toBe(false);
    }
    expect(lifeWords(4).of('scheduled_at')).toBeUndefined();
    expect(lifeWords(4).of('check_in')?.id).toBe('started');
  });

  it('reads a check-out without a check-in as a loan’s (a library’s checkout_date is when the book was rented)', () => {
    const loans = entity('loans', 1, [{ id: 'checkout_date', type: 'date' }, { id: 'return_date', type: 'date' }]);
    const stays = entity('stays', 1, [{ id: 'check_in', type: 'date' }, { id: 'check_out', type: 'date' }]);
    expect(words.in(loans, 'checkout_date')?.id).toBe('rented');
    expect(words.in(stays, 'check_out')?.id).toBe('checkedout');
  });
});

describe('a company’s domain', () => {
  const cases: [string, string][] = [
    ['Hughes Group', 'hughesgroup.com'],
    ['Riverside Clinic', 'riversideclinic.com'],
    // Over 24 letters: the first two words.
    ['Riverside Veterinary Clinic', 'riversideveterinary.com'],
    ['Schmidt, Kuhn and Sons Inc', 'schmidtkuhnsons.com'],
    ["O'Keefe LLC", 'okeefe.com'],
    ['Müller Ventures', 'mullerventures.com'],
  ];
  it.each(cases)('%s → %s', (name, want) => expect(companyDomain(name)).toBe(want));
});

describe('version 5 in files', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-context-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('writes the same bytes with 1 and 2 worker threads (work emails read their company’s name)', async () => {
    const digest = async (workers: number) => {
      const summary = await generateFiles(contextSchema(), {
        generatorVersion: 5,
        referenceDate: '2025-06-15',
        rowCounts: { users: 3_000 },
        parallelMinRows: 1_000,
        format: 'csv',
        workers,
        out: path.join(folder, String(workers)),
      });
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      return { digest: hash.digest('hex'), summary };
    };
    const one = await digest(1);
    const two = await digest(2);
    expect(two.summary.workers).toBe(2);
    expect(two.digest).toBe(one.digest);
    const users = fs.readFileSync(one.summary.files.find((file) => path.basename(file.path).startsWith('users'))!.path, 'utf8');
    expect(users).toMatch(/@[a-z]+\.com/);
    expect(users).not.toMatch(/@(gmail|yahoo|hotmail)\.com/);
  });
});
