// Agreeing references (generator version 4, reference-agreement.ts): an invoice's owner is its
// visit's pet's owner, a visit's clinic is its vet's clinic; versions 1–3 pick each reference alone.
import { describe, expect, it } from 'vitest';
import type { Entity, Field } from '../../../src/model/config-types.ts';
import { referenceAgreements } from '../../../src/generation/reference-agreement.ts';
import { CoherenceAudit } from '../../../src/generation/coherence/report.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';

const ref = (id: string, target: string, extra: Partial<Field> = {}): Field => ({ id, type: 'integer', references: { entity: target, field: 'id' }, ...extra });

export const clinic = (): Entity[] => [
  entity('clinics', 8, [{ id: 'name', type: 'string' }]),
  entity('owners', 120, [{ id: 'last_name', type: 'string' }]),
  entity('vets', 30, [ref('clinic_id', 'clinics')]),
  entity('pets', 300, [ref('owner_id', 'owners')]),
  entity('visits', 900, [ref('pet_id', 'pets'), ref('vet_id', 'vets'), ref('clinic_id', 'clinics')]),
  entity('invoices', 900, [ref('owner_id', 'owners'), ref('visit_id', 'visits')]),
];

const byId = (rows: Record<string, unknown>[]) => new Map(rows.map((row) => [row.id, row]));

describe('agreeing references (version 4)', () => {
  it('finds the shared ancestors and which reference is picked first', () => {
    const entities = clinic();
    const of = (id: string) => entities.find((candidate) => candidate.id === id)!;
    const summary = (id: string) =>
      referenceAgreements(of(id), entities, []).map((agreement) => ({
        anchor: of(id).fields[agreement.anchor]!.id,
        up: agreement.anchorPath.map((step) => `${step.entity}.${step.field.id}`),
        constrained: of(id).fields[agreement.constrained]!.id,
        ancestor: agreement.ancestor,
      }));
    expect(summary('invoices')).toEqual([{ anchor: 'visit_id', up: ['visits.pet_id', 'pets.owner_id'], constrained: 'owner_id', ancestor: 'owners' }]);
    expect(summary('visits')).toEqual([{ anchor: 'vet_id', up: ['vets.clinic_id'], constrained: 'clinic_id', ancestor: 'clinics' }]);
    expect(summary('pets')).toEqual([]);
  });

  it.each<[string, { given: Partial<Field>; want: number }]>([
    ['a plain reference agrees', { given: {}, want: 1 }],
    ['a sequential pick keeps its order', { given: { references: { entity: 'owners', field: 'id', pick: 'sequential' } }, want: 0 }],
    ['a skewed fan-out keeps its skew', { given: { references: { entity: 'owners', field: 'id', fanOut: { kind: 'zipf' } } }, want: 0 }],
    ['a one-to-one reference keeps its draw', { given: { references: { entity: 'owners', field: 'id', relation: 'one-to-one' } }, want: 0 }],
  ])('%s', (_name, { given, want }) => {
    const entities = clinic();
    const invoices = entity('invoices', 10, [ref('owner_id', 'owners', given), ref('visit_id', 'visits')]);
    expect(referenceAgreements(invoices, [...entities.slice(0, 5), invoices], [])).toHaveLength(want);
  });

  it('references of other names do not agree (a comment’s author and its post’s author)', () => {
    const entities = [entity('users', 10, []), entity('posts', 10, [ref('author_id', 'users')]), entity('comments', 10, [ref('commenter_id', 'users'), ref('post_id', 'posts')])];
    expect(referenceAgreements(entities[2]!, entities, [])).toEqual([]);
  });

  it.each<[string, { child: string; want: number }]>([
    ['comments', { child: 'comments', want: 0 }],
    ['post_likes', { child: 'post_likes', want: 0 }],
    ['ProductReviews', { child: 'ProductReviews', want: 0 }],
    ['replies', { child: 'replies', want: 0 }],
    ['addresses of an order agree with its customer', { child: 'orders', want: 1 }],
  ])('interactions keep their own references: %s', (_name, { child, want }) => {
    // An order's user_id and its address's user_id agree; a comment's user_id is not its post's user_id.
    const entities = [entity('users', 10, []), entity('posts', 10, [ref('user_id', 'users')]), entity(child, 10, [ref('user_id', 'users'), ref('post_id', 'posts')])];
    expect(referenceAgreements(entities[2]!, entities, [])).toHaveLength(want);
  });

  it("an invoice's owner is its visit's pet's owner and a visit's clinic its vet's, in every row; version 3 leaves them to chance", () => {
    const schema = config(...clinic());
    const run = generate(schema, { generatorVersion: 4 });
    const pets = byId(run.objects('pets'));
    const visits = byId(run.objects('visits'));
    const vets = byId(run.objects('vets'));
    const invoices = run.objects('invoices');
    expect(invoices.filter((invoice) => pets.get(visits.get(invoice.visit_id)!.pet_id)!.owner_id === invoice.owner_id)).toHaveLength(invoices.length);
    const visitRows = run.objects('visits');
    expect(visitRows.filter((visit) => vets.get(visit.vet_id)!.clinic_id === visit.clinic_id)).toHaveLength(visitRows.length);
    // Owners still spread over many owners: agreement follows the visits, which are random.
    expect(new Set(invoices.map((invoice) => invoice.owner_id)).size).toBeGreaterThan(80);

    const v3 = generate(schema, { generatorVersion: 3 });
    const v3Pets = byId(v3.objects('pets'));
    const v3Visits = byId(v3.objects('visits'));
    const agreeing = v3.objects('invoices').filter((invoice) => v3Pets.get(v3Visits.get(invoice.visit_id)!.pet_id)!.owner_id === invoice.owner_id);
    expect(agreeing.length).toBeLessThan(30);
  });

  it('rows whose ancestor has no parent to pick keep their own pick, and the report counts them', () => {
    // Stores reference a site and a manager, both under regions; two managers cannot cover six regions.
    const schema = config(
      entity('regions', 6, []),
      entity('sites', 60, [ref('region_id', 'regions')]),
      entity('managers', 2, [ref('region_id', 'regions')]),
      entity('stores', 400, [ref('site_id', 'sites'), ref('manager_id', 'managers')]),
    );
    const run = generate(schema, { generatorVersion: 4 });
    const audit = new CoherenceAudit(schema, run.plan);
    for (const id of ['regions', 'sites', 'managers', 'stores']) {
      const observe = audit.observer(id);
      for (const row of run.rows.get(id)!) observe?.(row);
    }
    const sites = byId(run.objects('sites'));
    const managers = byId(run.objects('managers'));
    const managed = new Set([...managers.values()].map((manager) => manager.region_id));
    const stores = run.objects('stores');
    const agreeing = stores.filter((store) => managers.get(store.manager_id)!.region_id === sites.get(store.site_id)!.region_id);
    // Every store whose region has a manager agrees; the others could not.
    expect(agreeing).toHaveLength(stores.filter((store) => managed.has(sites.get(store.site_id)!.region_id)).length);
    expect(agreeing.length).toBeLessThan(stores.length);
    expect(agreeing.length).toBeGreaterThan(0);
    const counts = audit.report().filter((candidate) => candidate.rule === 'references-agree');
    expect(counts).toEqual([{ rule: 'references-agree', ruleId: 'reference.agree', entity: 'stores', field: 'manager_id', against: 'site_id.region_id (regions)', rows: 400, holding: agreeing.length }]);
  });
});
