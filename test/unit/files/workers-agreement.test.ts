// Generator version 4's agreeing references, formulas by name and nulls read parents' columns by key
// and other fields of the row: files are byte-identical with 1 and 2 worker threads all the same.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { config, entity } from '../../helpers/generate-in-memory.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-agree-workers-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const ref = (id: string, target: string): Field => ({ id, type: 'integer', references: { entity: target, field: 'id' } });
const clinic = config(
  entity('clinics', 5, []),
  entity('owners', 2_000, [{ id: 'middle_name', type: 'string', nullable: true }]),
  entity('vets', 40, [ref('clinic_id', 'clinics')]),
  entity('pets', 4_000, [ref('owner_id', 'owners')]),
  entity('visits', 8_000, [ref('pet_id', 'pets'), ref('vet_id', 'vets'), ref('clinic_id', 'clinics')]),
  entity('invoices', 8_000, [ref('owner_id', 'owners'), ref('visit_id', 'visits'), { id: 'subtotal', type: 'number', precision: 2 }, { id: 'tax', type: 'number', precision: 2 }, { id: 'total', type: 'number', precision: 2 }]),
);

describe('version 4 files with worker threads', () => {
  it('the same bytes with 1 and 2 workers, ranges made by this thread or by worker threads', async () => {
    const files = async (workers: number, rangesOnWorkers = false) => {
      const summary = await generateFiles(clinic, { referenceDate: '2025-06-15', generatorVersion: 4, parallelMinRows: 1_000, rangeRows: 1_000, rangesOnWorkers, format: 'csv', workers, out: path.join(folder, `${workers}-${rangesOnWorkers}`) });
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      return { digest: hash.digest('hex'), summary };
    };
    const one = await files(1);
    const two = await files(2, true);
    expect(two.summary.workers).toBe(2);
    expect(two.summary.rowsWritten).toBe(5 + 2_000 + 40 + 4_000 + 8_000 + 8_000);
    expect(two.digest).toBe(one.digest);
    // The rows made in ranges on the worker thread agree: an invoice's owner is its visit's pet's owner.
    const csv = (name: string) => {
      const file = two.summary.files.find((candidate) => path.basename(candidate.path).startsWith(`${name}.`))!;
      const [header, ...lines] = fs.readFileSync(file.path, 'utf8').trim().split('\r\n');
      const columns = header!.split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value])));
    };
    const petOwner = new Map(csv('pets').map((pet) => [pet.id, pet.owner_id]));
    const visitPet = new Map(csv('visits').map((visit) => [visit.id, visit.pet_id]));
    const invoices = csv('invoices');
    expect(invoices.filter((invoice) => petOwner.get(visitPet.get(invoice.visit_id)!) === invoice.owner_id)).toHaveLength(8_000);
  }, 120_000);
});
