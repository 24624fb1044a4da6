// A schema config that uses every field type and every reference option, for the engine's
// integration tests: a 2-entity cycle broken by a nullable field (companies.ceoId ↔ people.companyId),
// a nullable self reference (companies.parentId), one-to-one (profiles.personId), sequential and random
// picks, a composite primary key of two references (assignments), unique keys and indexes (one
// unique, one composite), onDelete/onUpdate restrict, cascade and set-null, nullable fields with
// emptyRate, a reference strategy without a foreign key, and a unique enum whose pool runs out (tags).
import type { SchemaConfig } from '../../src/contract.ts';

export const ROWS = { companies: 40, people: 300, profiles: 200, projects: 25, assignments: 400, events: 120, tags: 10 } as const;
/** tags.label draws 10 rows from 5 enum values without replacement: 5 rows, and a warning. */
export const TAG_VALUES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

export function everyOptionConfig(seed: string | number = 'every-option'): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'Every option', description: 'every field type and reference option' },
    generationDefaults: { seed, locale: 'en', timezone: 'UTC' },
    entities: [
      {
        id: 'companies',
        primaryKey: ['id'],
        uniqueKeys: [['slug']],
        generation: { rowCount: ROWS.companies },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'name', type: 'string', maxLength: 120, generation: { strategy: { kind: 'faker', method: 'company.name' } } },
          { id: 'slug', type: 'string', format: 'slug', maxLength: 80 },
          { id: 'website', type: 'string', format: 'url', maxLength: 200, nullable: true },
          { id: 'phone', type: 'string', format: 'phone', maxLength: 40 },
          { id: 'founded', type: 'date', outputFormat: 'slash', weekdaysOnly: true },
          { id: 'revenue', type: 'number', min: 1000, max: 1000000, precision: 2 },
          { id: 'parentId', type: 'integer', nullable: true, references: { entity: 'companies', field: 'id', onDelete: 'set-null', onUpdate: 'cascade' } },
          {
            id: 'ceoId',
            type: 'uuid',
            nullable: true,
            generation: { emptyRate: 0.25 },
            references: { entity: 'people', field: 'id', onDelete: 'set-null', onUpdate: 'set-null' },
          },
        ],
      },
      {
        id: 'people',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        indexes: [
          { fields: ['lastName', 'firstName'] },
          { id: 'people_handle_unique', fields: ['handle'], unique: true },
        ],
        generation: { rowCount: ROWS.people },
        fields: [
          { id: 'id', type: 'uuid' },
          { id: 'companyId', type: 'integer', references: { entity: 'companies', field: 'id', onDelete: 'cascade', onUpdate: 'cascade' } },
          { id: 'email', type: 'string', format: 'email', maxLength: 120 },
          { id: 'firstName', type: 'string', maxLength: 60 },
          { id: 'lastName', type: 'string', maxLength: 60 },
          { id: 'handle', type: 'string', minLength: 6, maxLength: 30, prefix: '@', suffix: '_x' },
          { id: 'bio', type: 'text', nullable: true, generation: { emptyRate: 0.3 } },
          { id: 'age', type: 'integer', min: 18, max: 90 },
          { id: 'score', type: 'number' },
          { id: 'active', type: 'boolean', trueRate: 0.7 },
          { id: 'role', type: 'enum', values: ['admin', 'editor', "it's \"quoted\"", 'reader'], weights: [1, 2, 1, 6] },
          { id: 'joinedAt', type: 'datetime', outputFormat: 'sql' },
          { id: 'startsAt', type: 'time' },
          { id: 'prefs', type: 'json', nullable: true, generation: { emptyRate: 0.5 } },
        ],
      },
      {
        id: 'profiles',
        primaryKey: ['id'],
        uniqueKeys: [['personId']],
        generation: { rowCount: ROWS.profiles },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'personId', type: 'uuid', references: { entity: 'people', field: 'id', relation: 'one-to-one', onDelete: 'cascade' } },
          { id: 'avatar', type: 'string', format: 'url', maxLength: 200 },
          { id: 'birthday', type: 'date' },
        ],
      },
      {
        id: 'projects',
        primaryKey: ['id'],
        uniqueKeys: [['companyId', 'name']],
        indexes: [{ id: 'projects_code_key', fields: ['code'], unique: true }, { fields: ['status'] }],
        generation: { rowCount: ROWS.projects },
        fields: [
          { id: 'id', type: 'integer' },
          // Restrict (the default) on both actions, parents in order: project i → company ((i - 1) mod 40) + 1.
          { id: 'companyId', type: 'integer', references: { entity: 'companies', field: 'id', pick: 'sequential' } },
          { id: 'name', type: 'string', maxLength: 80, generation: { strategy: { kind: 'faker', method: 'commerce.productName' } } },
          { id: 'code', type: 'string', maxLength: 20, generation: { strategy: { kind: 'template', template: 'PRJ-{{id}}' } } },
          { id: 'status', type: 'enum', values: ['planned', 'running', 'done'] },
          { id: 'budget', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 100, max: 5000, precision: 2 } } },
        ],
      },
      {
        id: 'assignments',
        primaryKey: ['projectId', 'personId'],
        indexes: [{ fields: ['personId'] }],
        generation: { rowCount: ROWS.assignments },
        fields: [
          { id: 'projectId', type: 'integer', references: { entity: 'projects', field: 'id', onDelete: 'cascade', onUpdate: 'restrict' } },
          { id: 'personId', type: 'uuid', references: { entity: 'people', field: 'id', onDelete: 'restrict', onUpdate: 'cascade' } },
          { id: 'hours', type: 'integer', generation: { strategy: { kind: 'randomInt', min: 1, max: 40 } } },
          { id: 'note', type: 'string', maxLength: 200, nullable: true, generation: { emptyRate: 0.6, strategy: { kind: 'faker', method: 'lorem.sentence' } } },
        ],
      },
      {
        id: 'events',
        primaryKey: ['id'],
        generation: { rowCount: ROWS.events },
        fields: [
          { id: 'id', type: 'integer', generation: { strategy: { kind: 'sequence', start: 1000, step: 5 } } },
          // A reference strategy: values of people.id, without a foreign key.
          { id: 'actor', type: 'uuid', generation: { strategy: { kind: 'reference', entity: 'people', field: 'id', pick: 'random' } } },
          {
            id: 'kind',
            type: 'string',
            maxLength: 20,
            generation: { strategy: { kind: 'weightedChoice', choices: [{ value: 'login', weight: 5 }, { value: 'logout', weight: 3 }, { value: 'purchase', weight: 1 }] } },
          },
          { id: 'label', type: 'string', maxLength: 60, generation: { strategy: { kind: 'template', template: '{{kind}} #{{id}}' } } },
          { id: 'version', type: 'string', maxLength: 10, generation: { strategy: { kind: 'literal', value: 'v1' } } },
          { id: 'flagged', type: 'boolean', generation: { strategy: { kind: 'randomBoolean', trueRate: 0.2 } } },
          { id: 'happenedOn', type: 'date', generation: { strategy: { kind: 'dateRange', from: '2024-01-01', to: '2024-12-31' } } },
          { id: 'at', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-30d', to: 'now' } } },
          { id: 'amount', type: 'number', precision: 3, generation: { strategy: { kind: 'randomFloat', min: 0, max: 10, precision: 3 } } },
        ],
      },
      {
        id: 'tags',
        primaryKey: ['id'],
        generation: { rowCount: ROWS.tags },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'label', type: 'enum', values: TAG_VALUES, generation: { uniqueValues: true } },
        ],
      },
    ],
  };
}
