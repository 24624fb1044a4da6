import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/config/validate-config.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { entityOrder, resolveRowCount } from '../../../src/model/config-graph.ts';
import { describePath, pointer, pointerTokens } from '../../../src/model/config-issues.ts';
import { checkConfigSchema, schemaConfigJsonSchema } from '../../../src/config/config-schema.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';

// Cases break the config on purpose, in ways its generated type forbids.
type Loose = any;

// teams 0: id 0, name 1, ownerId 2
// users 1: id 0, teamId 1, firstName 2, lastName 3, email 4, age 5, score 6, active 7, role 8, plan 9,
//          country 10, createdAt 11, managerId 12
// posts 2: id 0, authorId 1, editorEmail 2, title 3, publishedOn 4
function base(): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'Teams and posts', tags: ['test'], owner: 'qa' },
    generationDefaults: { rowCount: 50, locale: 'en', timezone: 'UTC', seed: 42 },
    entities: [
      {
        id: 'teams',
        primaryKey: ['id'],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'name', type: 'string', maxLength: 80, generation: { strategy: { kind: 'faker', method: 'company.name' } } },
          { id: 'ownerId', type: 'integer', nullable: true, references: { entity: 'users', field: 'id' } },
        ],
      },
      {
        id: 'users',
        primaryKey: ['id'],
        uniqueKeys: [['email']],
        generation: { rowCount: { min: 100, max: 200 }, locale: 'de', timezone: 'Europe/Berlin' },
        fields: [
          { id: 'id', type: 'integer', generation: { strategy: { kind: 'sequence', start: 1, step: 1 } } },
          { id: 'teamId', type: 'integer', references: { entity: 'teams', field: 'id' } },
          { id: 'firstName', type: 'string', generation: { strategy: { kind: 'faker', method: 'person.firstName' } } },
          { id: 'lastName', type: 'string', generation: { strategy: { kind: 'faker', method: 'person.lastName' } } },
          {
            id: 'email',
            type: 'string',
            format: 'email',
            generation: { strategy: { kind: 'template', template: '{{firstName}}.{{lastName}}.{{faker.number.int}}@example.com' } },
          },
          { id: 'age', type: 'integer', min: 18, max: 90, generation: { strategy: { kind: 'randomInt', min: 18, max: 90 } } },
          { id: 'score', type: 'number', precision: 2, generation: { strategy: { kind: 'randomFloat', min: 0, max: 100, precision: 2 } } },
          { id: 'active', type: 'boolean', generation: { strategy: { kind: 'randomBoolean', trueRate: 0.8 } } },
          { id: 'role', type: 'enum', values: ['admin', 'member'], weights: [1, 9] },
          {
            id: 'plan',
            type: 'string',
            generation: {
              strategy: {
                kind: 'weightedChoice',
                choices: [
                  { value: 'free', weight: 3 },
                  { value: 'pro', weight: 1 },
                ],
              },
            },
          },
          { id: 'country', type: 'string', generation: { strategy: { kind: 'literal', value: 'DE' } } },
          { id: 'createdAt', type: 'datetime', outputFormat: 'iso', generation: { strategy: { kind: 'dateRange', from: '-1y', to: 'now' } } },
          { id: 'managerId', type: 'integer', nullable: true, references: { entity: 'users', field: 'id' } },
        ],
      },
      {
        id: 'posts',
        primaryKey: ['id'],
        indexes: [{ id: 'posts_author', fields: ['authorId'] }],
        fields: [
          { id: 'id', type: 'uuid' },
          { id: 'authorId', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
          {
            id: 'editorEmail',
            type: 'string',
            nullable: true,
            generation: { emptyRate: 0.5, strategy: { kind: 'reference', entity: 'users', field: 'email', pick: 'sequential' } },
          },
          { id: 'title', type: 'string', maxLength: 200 },
          { id: 'publishedOn', type: 'date', weekdaysOnly: true, outputFormat: 'slash' },
        ],
      },
    ],
  };
}

function edit(change: (config: Loose) => void): unknown {
  const config = base();
  change(config);
  return config;
}

const teams = (c: Loose) => c.entities[0];
const users = (c: Loose) => c.entities[1];
const posts = (c: Loose) => c.entities[2];
const KINDS = '"literal", "sequence", "randomInt", "randomFloat", "randomBoolean", "weightedChoice", "faker", "template", "dateRange", "reference", "formula", "styledText", "childrenSum"';

type Want = { errors?: Issue[]; warnings?: Issue[] };
const cases: [string, { given: unknown; want: Want }][] = [
  // JSON Schema
  ['rejects a config that is not an object', { given: [], want: { errors: [{ path: '', message: 'the config must be an object; got an array' }] } }],
  [
    'names a missing required property at its object',
    {
      given: edit((c) => delete users(c).id),
      want: { errors: [{ path: '/entities/1', message: 'entities[1] is missing required property "id"' }] },
    },
  ],
  [
    'requires formatVersion 1',
    {
      given: edit((c) => (c.formatVersion = 2)),
      want: { errors: [{ path: '/formatVersion', message: 'formatVersion must be 1; got 2' }] },
    },
  ],
  [
    'names an unknown property, where it is and what is allowed',
    {
      given: edit((c) => (teams(c).fields[0].colour = 'red')),
      want: {
        errors: [
          {
            path: '/entities/0/fields/0/colour',
            message:
              'entities[0].fields[0] has unknown property "colour"; allowed properties: id, type, label, description, nullable, default, references, generation, format, minLength, maxLength, min, max, precision, digits, prefix, suffix, trueRate, outputFormat, weekdaysOnly, values, weights',
          },
        ],
      },
    },
  ],
  [
    'escapes ~ and / of an unknown property in the JSON pointer',
    {
      given: edit((c) => (c['a/b~c'] = 1)),
      want: {
        errors: [
          { path: '/a~1b~0c', message: 'the config has unknown property "a/b~c"; allowed properties: formatVersion, metadata, generationDefaults, entities, learned' },
        ],
      },
    },
  ],
  [
    'suggests a close property name',
    {
      given: edit((c) => (users(c).primarykey = ['id'])),
      want: {
        errors: [
          {
            path: '/entities/1/primarykey',
            message:
              'entities[1] has unknown property "primarykey" (did you mean "primaryKey"?); allowed properties: id, label, description, fields, primaryKey, uniqueKeys, indexes, references, generation',
          },
        ],
      },
    },
  ],
  [
    'lists the allowed values of an enum',
    {
      given: edit((c) => (posts(c).fields[0].type = 'uid')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/0/type',
            message:
              'entities[2].fields[0].type must be one of "string", "text", "integer", "number", "boolean", "date", "datetime", "time", "uuid", "json", "enum"; got "uid" (did you mean "uuid"?)',
          },
        ],
      },
    },
  ],
  [
    'explains identifiers',
    {
      given: edit((c) => (teams(c).id = '1teams')),
      want: {
        errors: [
          {
            path: '/entities/0/id',
            message: 'entities[0].id "1teams" is not a valid identifier: it must start with a letter and contain only letters, digits and underscores',
          },
          // The rest is still checked: users.teamId names "teams", which is not the (broken) "1teams".
          { path: '/entities/1/fields/1/references/entity', message: 'entity "teams" does not exist; use one of: users, posts' },
        ],
      },
    },
  ],
  [
    'limits identifiers to 63 characters',
    {
      given: edit((c) => (teams(c).fields[1].id = 'a'.repeat(64))),
      want: { errors: [{ path: '/entities/0/fields/1/id', message: 'entities[0].fields[1].id must be at most 63 characters long; got 64' }] },
    },
  ],
  [
    'checks bounds: rowCount >= 0, trueRate <= 1, emptyRate <= 1, maxLength >= 1, precision >= 1',
    {
      given: edit((c) => {
        c.generationDefaults.rowCount = -1;
        users(c).fields[7].trueRate = 1.5;
        posts(c).fields[2].generation.emptyRate = 2;
        posts(c).fields[3].maxLength = 0;
        users(c).fields[6].precision = 0;
      }),
      want: {
        errors: [
          { path: '/generationDefaults/rowCount', message: 'generationDefaults.rowCount must be >= 0; got -1' },
          { path: '/entities/1/fields/6/precision', message: 'entities[1].fields[6].precision must be >= 1; got 0' },
          { path: '/entities/1/fields/7/trueRate', message: 'entities[1].fields[7].trueRate must be <= 1; got 1.5' },
          { path: '/entities/2/fields/2/generation/emptyRate', message: 'entities[2].fields[2].generation.emptyRate must be <= 1; got 2' },
          { path: '/entities/2/fields/3/maxLength', message: 'entities[2].fields[3].maxLength must be >= 1; got 0' },
        ],
      },
    },
  ],
  [
    'explains a row-count range missing a bound',
    {
      given: edit((c) => (users(c).generation.rowCount = { min: 1 })),
      want: { errors: [{ path: '/entities/1/generation/rowCount', message: 'entities[1].generation.rowCount is missing required property "max"' }] },
    },
  ],
  [
    'explains a row count of the wrong type',
    {
      given: edit((c) => (users(c).generation.rowCount = '100')),
      want: {
        errors: [
          {
            path: '/entities/1/generation/rowCount',
            message: 'entities[1].generation.rowCount must be an integer from 0 to 100000000 or a range {"min": …, "max": …}; got the string "100"',
          },
        ],
      },
    },
  ],
  [
    'caps a row count at 100,000,000',
    {
      given: edit((c) => (users(c).generation.rowCount = 1_000_000_000)),
      want: {
        errors: [
          {
            path: '/entities/1/generation/rowCount',
            message: 'entities[1].generation.rowCount must be <= 100000000; got 1000000000',
          },
        ],
      },
    },
  ],
  [
    'caps a row-count range at 100,000,000',
    {
      given: edit((c) => (users(c).generation.rowCount = { min: 1, max: 100_000_001 })),
      want: { errors: [{ path: '/entities/1/generation/rowCount/max', message: 'entities[1].generation.rowCount.max must be <= 100000000; got 100000001' }] },
    },
  ],
  [
    'caps maxLength at the largest length MySQL can store',
    {
      given: edit((c) => (users(c).fields[1].maxLength = 2_000_000_000)),
      want: { errors: [{ path: '/entities/1/fields/1/maxLength', message: 'entities[1].fields[1].maxLength must be <= 1073741823; got 2000000000' }] },
    },
  ],
  [
    'requires weights > 0',
    {
      given: edit((c) => (users(c).fields[8].weights = [0, 1])),
      want: { errors: [{ path: '/entities/1/fields/8/weights/0', message: 'entities[1].fields[8].weights[0] must be > 0; got 0' }] },
    },
  ],
  [
    'lists the strategy kinds for an unknown kind',
    {
      given: edit((c) => (users(c).fields[2].generation.strategy = { kind: 'fakr', method: 'person.firstName' })),
      want: {
        errors: [
          {
            path: '/entities/1/fields/2/generation/strategy/kind',
            message: `entities[1].fields[2].generation.strategy.kind must be one of ${KINDS}; got "fakr" (did you mean "faker"?)`,
          },
        ],
      },
    },
  ],
  [
    'requires a strategy kind',
    {
      given: edit((c) => (users(c).fields[2].generation.strategy = {})),
      want: {
        errors: [
          {
            path: '/entities/1/fields/2/generation/strategy',
            message: `entities[1].fields[2].generation.strategy is missing required property "kind" (one of ${KINDS})`,
          },
        ],
      },
    },
  ],
  [
    'checks strategy properties against their kind only',
    {
      given: edit((c) => {
        users(c).fields[5].generation.strategy.min = '18';
        users(c).fields[0].generation.strategy.step = 0;
        users(c).fields[9].generation.strategy.choices = [];
        users(c).fields[11].generation.strategy.from = 'yesterday';
        users(c).fields[2].generation.strategy.method = 'firstName';
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/0/generation/strategy/step', message: 'entities[1].fields[0].generation.strategy.step must not be 0' },
          {
            path: '/entities/1/fields/2/generation/strategy/method',
            message: 'entities[1].fields[2].generation.strategy.method "firstName" is not a faker method: write it as "module.method", e.g. "person.firstName"',
          },
          {
            path: '/entities/1/fields/5/generation/strategy/min',
            message: 'entities[1].fields[5].generation.strategy.min must be an integer; got the string "18"',
          },
          {
            path: '/entities/1/fields/9/generation/strategy/choices',
            message: 'entities[1].fields[9].generation.strategy.choices must have at least 1 item',
          },
          {
            path: '/entities/1/fields/11/generation/strategy/from',
            message:
              'entities[1].fields[11].generation.strategy.from "yesterday" is not a valid date bound: use an ISO date or datetime (2024-01-31, 2024-01-31T12:00:00Z), "now", or an offset such as "-30d" or "+1y" (units s, m, h, d, w, M, y)',
          },
        ],
      },
    },
  ],
  [
    'checks numeric distributions against their own kind, and their parameters against the bounds, all at once',
    {
      given: edit((c) => {
        users(c).fields[5].generation.strategy.distribution = { kind: 'gauss' };
        users(c).fields[6].generation.strategy.distribution = { kind: 'normal', stddev: -1, sd: 3 };
        users(c).fields[6].generation.strategy.min = 0;
        teams(c).fields.push({ id: 'wait', type: 'number', generation: { strategy: { kind: 'randomFloat', min: 5, max: 9, distribution: { kind: 'exponential', mean: 2 } } } });
        teams(c).fields.push({ id: 'loss', type: 'number', generation: { strategy: { kind: 'randomFloat', min: -10, max: 0, distribution: { kind: 'lognormal' } } } });
        teams(c).fields.push({ id: 'rank', type: 'number', generation: { strategy: { kind: 'randomFloat', min: 0.2, max: 0.8, distribution: { kind: 'zipf' } } } });
      }),
      want: {
        errors: [
          {
            path: '/entities/0/fields/3/generation/strategy/distribution/mean',
            message: 'exponential values start at min, so their mean (2) must be greater than min of randomFloat teams.wait (min 5, max 9); give a mean > 5',
          },
          {
            path: '/entities/0/fields/4/generation/strategy/distribution',
            message: 'lognormal values are positive but the midpoint of randomFloat teams.loss (min -10, max 0), the default median, is not; give a median > 0',
          },
          {
            path: '/entities/0/fields/5/generation/strategy/distribution',
            message: 'zipf ranks are whole numbers from min, but randomFloat teams.rank (min 0.2, max 0.8) holds none; widen min and max',
          },
          {
            path: '/entities/1/fields/5/generation/strategy/distribution/kind',
            message: 'entities[1].fields[5].generation.strategy.distribution.kind must be one of "uniform", "normal", "lognormal", "exponential", "zipf", "empirical"; got "gauss"',
          },
          {
            path: '/entities/1/fields/6/generation/strategy/distribution/sd',
            message: 'entities[1].fields[6].generation.strategy.distribution has unknown property "sd"; allowed properties: kind, mean, stddev',
          },
          {
            path: '/entities/1/fields/6/generation/strategy/distribution/stddev',
            message: 'entities[1].fields[6].generation.strategy.distribution.stddev must be > 0; got -1',
          },
        ],
      },
    },
  ],
  [
    'allows other properties on a strategy and in metadata',
    { given: edit((c) => (users(c).fields[0].generation.strategy.note = 'ids')), want: {} },
  ],

  // Ids and keys
  [
    'rejects entity ids that differ only in case',
    {
      given: edit((c) => (posts(c).id = 'Users')),
      want: {
        errors: [
          {
            path: '/entities/2/id',
            message:
              'entity ids must be unique: "Users" and "users" differ only in case (also at /entities/1/id); they become table names, compared ignoring case, so rename one',
          },
        ],
      },
    },
  ],
  [
    'rejects duplicate field ids',
    {
      given: edit((c) => (posts(c).fields[3].id = 'id')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/3/id',
            message:
              'field ids of entity "posts" must be unique: "id" is used twice (also at /entities/2/fields/0/id); they become column names, compared ignoring case, so rename one',
          },
        ],
      },
    },
  ],
  [
    'rejects an entity without fields',
    {
      given: edit((c) => c.entities.push({ id: 'empty', primaryKey: [], fields: [] })),
      want: {
        errors: [
          { path: '/entities/3/fields', message: 'entity "empty" has no fields; add at least one field' },
          { path: '/entities/3/primaryKey', message: 'primaryKey of entity "empty" is empty; list at least one field id or remove it' },
        ],
      },
    },
  ],
  [
    'checks that keys and indexes name existing fields, once',
    {
      given: edit((c) => {
        users(c).primaryKey = ['id', 'id'];
        users(c).uniqueKeys = [['emial'], []];
        posts(c).indexes = [{ fields: ['author'] }];
      }),
      want: {
        errors: [
          { path: '/entities/1/primaryKey/1', message: 'primaryKey of entity "users" lists "id" twice; remove the duplicate' },
          {
            path: '/entities/1/uniqueKeys/0/0',
            message:
              'uniqueKeys[0] of entity "users" names unknown field "emial" (did you mean "email"?); use one of: id, teamId, firstName, lastName, email, age, score, active, role, plan, country, createdAt, managerId',
          },
          { path: '/entities/1/uniqueKeys/1', message: 'uniqueKeys[1] of entity "users" is empty; list at least one field id or remove it' },
          {
            path: '/entities/2/indexes/0/fields/0',
            message: 'indexes[0].fields of entity "posts" names unknown field "author" (did you mean "authorId"?); use one of: id, authorId, editorEmail, title, publishedOn',
          },
        ],
      },
    },
  ],
  [
    'rejects a nullable primary-key field',
    {
      given: edit((c) => (posts(c).fields[0].nullable = true)),
      want: {
        errors: [
          {
            path: '/entities/2/primaryKey/0',
            message: 'primary key field "id" of entity "posts" is nullable; remove "nullable": true from it or take it out of the primaryKey',
          },
        ],
      },
    },
  ],
  [
    'rejects index ids used twice in the config',
    {
      given: edit((c) => (users(c).indexes = [{ id: 'POSTS_AUTHOR', fields: ['teamId'] }])),
      want: {
        errors: [
          {
            path: '/entities/2/indexes/0/id',
            message:
              'index id "posts_author" is already used at /entities/1/indexes/0/id; index names share one database namespace, so give each index its own id',
          },
        ],
      },
    },
  ],

  // References
  [
    'rejects a reference to an unknown entity',
    {
      given: edit((c) => (posts(c).fields[1].references.entity = 'user')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/references/entity',
            message: 'entity "user" does not exist (did you mean "users"?); use one of: teams, users, posts',
          },
        ],
      },
    },
  ],
  [
    'rejects a reference to an unknown field',
    {
      given: edit((c) => (posts(c).fields[1].references.field = 'uid')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/references/field',
            message:
              'entity "users" has no field "uid" (did you mean "id"?); use one of: id, teamId, firstName, lastName, email, age, score, active, role, plan, country, createdAt, managerId',
          },
        ],
      },
    },
  ],
  [
    'requires the referenced field to be a single-field key',
    {
      given: edit((c) => (posts(c).fields[1].references.field = 'age')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/references/field',
            message:
              'posts.authorId references users.age, which is neither the single-field primary key nor a single-field unique key of "users"; reference users.id or add ["age"] to the uniqueKeys of "users"',
          },
        ],
      },
    },
  ],
  [
    'accepts a reference to a single-field unique key or unique index',
    {
      given: edit((c) => {
        posts(c).fields[2] = { id: 'editorEmail', type: 'string', nullable: true, references: { entity: 'users', field: 'email' } };
        users(c).indexes = [{ fields: ['firstName'], unique: true }];
        posts(c).fields[3].references = { entity: 'users', field: 'firstName' };
      }),
      want: {},
    },
  ],
  [
    'requires the type of the referenced field',
    {
      given: edit((c) => (posts(c).fields[1].type = 'string')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/type',
            message: 'posts.authorId is string but the field it references, users.id, is integer; change posts.authorId to "integer"',
          },
        ],
      },
    },
  ],
  [
    'requires a nullable field for set-null',
    {
      given: edit((c) => (posts(c).fields[1].references.onDelete = 'set-null')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/references/onDelete',
            message: 'onDelete "set-null" needs a nullable field; set "nullable": true on posts.authorId or use "restrict" or "cascade"',
          },
        ],
      },
    },
  ],
  [
    'rejects a reference cycle that no nullable field breaks',
    {
      given: edit((c) => (teams(c).fields[2].nullable = false)),
      want: {
        errors: [
          {
            path: '/entities/0/fields/2',
            message:
              'reference cycle teams → users → teams cannot be broken: make one of these reference fields nullable: /entities/0/fields/2, /entities/1/fields/1 (or, to keep it NOT NULL, give its "references" "fillAfterInsert": true)',
          },
        ],
      },
    },
  ],
  [
    'requires self references to be nullable',
    {
      given: edit((c) => delete users(c).fields[12].nullable),
      want: {
        errors: [
          {
            path: '/entities/1/fields/12',
            message: 'users.managerId references its own entity "users" but is not nullable; self references are filled after insert, so set "nullable": true (or, to keep it NOT NULL, give its "references" "fillAfterInsert": true)',
          },
        ],
      },
    },
  ],

  [
    'accepts a NOT NULL reference cycle and self reference broken by fillAfterInsert',
    {
      given: edit((c) => {
        teams(c).fields[2].nullable = false;
        teams(c).fields[2].references.fillAfterInsert = true;
        delete users(c).fields[12].nullable;
        users(c).fields[12].references.fillAfterInsert = true;
      }),
      want: { errors: [] },
    },
  ],
  [
    'refuses fillAfterInsert on a nullable field or a primary-key field',
    {
      given: edit((c) => {
        users(c).fields[12].references.fillAfterInsert = true;
      }),
      want: {
        errors: [
          {
            path: '/entities/1/fields/12/references/fillAfterInsert',
            message:
              'fillAfterInsert keeps a NOT NULL reference NOT NULL, but users.managerId is nullable (nullable references are filled after insert anyway); remove one of them',
          },
        ],
      },
    },
  ],

  // Field properties
  [
    'allows type-specific properties only on their types',
    {
      given: edit((c) => {
        users(c).fields[5].format = 'email';
        users(c).fields[5].trueRate = 0.5;
        users(c).fields[5].precision = 2;
        users(c).fields[2].values = ['a'];
        posts(c).fields[3].outputFormat = 'iso';
        posts(c).fields[3].min = 1;
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/2/values', message: '"values" applies only to enum fields, but users.firstName is string; remove it or change the type' },
          { path: '/entities/1/fields/5/format', message: '"format" applies only to string fields, but users.age is integer; remove it or change the type' },
          { path: '/entities/1/fields/5/precision', message: '"precision" applies only to number fields, but users.age is integer; remove it or change the type' },
          { path: '/entities/1/fields/5/trueRate', message: '"trueRate" applies only to boolean fields, but users.age is integer; remove it or change the type' },
          { path: '/entities/2/fields/3/min', message: '"min" applies only to integer and number fields, but posts.title is string; remove it or change the type' },
          {
            path: '/entities/2/fields/3/outputFormat',
            message: '"outputFormat" applies only to date and datetime fields, but posts.title is string; remove it or change the type',
          },
        ],
      },
    },
  ],
  [
    'requires as many weights as values',
    {
      given: edit((c) => (users(c).fields[8].values = ['admin', 'member', 'guest'])),
      want: { errors: [{ path: '/entities/1/fields/8/weights', message: 'weights has 2 entries but values has 3; give one weight per value' }] },
    },
  ],
  [
    'requires enum values',
    {
      given: edit((c) => {
        delete users(c).fields[8].values;
        delete users(c).fields[8].weights;
        posts(c).fields.push({ id: 'state', type: 'enum', values: [] }, { id: 'kind', type: 'enum', values: ['a', 'b', 'a'] });
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/8', message: 'enum field users.role needs "values": a non-empty list of its allowed values' },
          { path: '/entities/2/fields/5/values', message: 'values of enum field posts.state is empty; list at least one allowed value' },
          { path: '/entities/2/fields/6/values/2', message: 'values of posts.kind lists "a" twice (at 0 and 2); remove the duplicate' },
        ],
      },
    },
  ],
  [
    'requires min ≤ max, minLength ≤ maxLength and row-count ranges in order',
    {
      given: edit((c) => {
        users(c).fields[5].min = 91;
        posts(c).fields[3].minLength = 201;
        users(c).generation.rowCount = { min: 10, max: 5 };
      }),
      want: {
        errors: [
          { path: '/entities/1/generation/rowCount', message: 'rowCount range min (10) is greater than max (5); make min ≤ max' },
          { path: '/entities/1/fields/5/max', message: 'min (91) of users.age is greater than its max (90); make min ≤ max' },
          { path: '/entities/2/fields/3/maxLength', message: 'minLength (201) of posts.title is greater than its maxLength (200); make minLength ≤ maxLength' },
        ],
      },
    },
  ],
  [
    'requires a default that fits its field: a value of its type within its bounds, or a function of its type',
    {
      given: edit((c) => {
        users(c).fields[5].default = { value: 95 };
        users(c).fields[6].default = { value: '12x' };
        users(c).fields[7].default = { value: true };
        users(c).fields[8].default = { value: 'owner' };
        users(c).fields[9].default = { value: 'free' };
        users(c).fields[11].default = { function: 'current_date' };
        posts(c).fields[0].default = { function: 'uuid' };
        posts(c).fields[3].default = { value: 'x'.repeat(201) };
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/5/default/value', message: 'default 95 of users.age must be at most 90; give a value the field accepts' },
          { path: '/entities/1/fields/6/default/value', message: 'default "12x" of users.score is not a finite number; give a value the field accepts' },
          { path: '/entities/1/fields/8/default/value', message: 'default "owner" of users.role is not one of "admin", "member"; give a value the field accepts' },
          { path: '/entities/1/fields/11/default/function', message: 'default function "current_date" of users.createdAt gives date values, but users.createdAt is datetime; use "now"' },
          { path: '/entities/2/fields/3/default/value', message: `default "${'x'.repeat(201)}" of posts.title must be at most 200 characters long; give a value the field accepts` },
        ],
      },
    },
  ],
  [
    'rejects unknown locales and time zones, accepts en-US',
    {
      given: edit((c) => {
        c.generationDefaults.locale = 'en-US';
        c.generationDefaults.timezone = 'Mars/Olympus';
        users(c).generation.locale = 'dee';
      }),
      want: {
        errors: [
          { path: '/generationDefaults/timezone', message: 'unknown time zone "Mars/Olympus"; use an IANA time zone such as "UTC" or "Europe/Berlin"' },
          { path: '/entities/1/generation/locale', message: 'unknown locale "dee" (did you mean "de"?); use a faker locale such as "en", "de" or "en_US"' },
        ],
      },
    },
  ],

  // Strategies
  [
    'rejects a strategy kind that cannot fill the field type',
    {
      given: edit((c) => (users(c).fields[5].generation.strategy = { kind: 'randomBoolean' })),
      want: {
        errors: [
          {
            path: '/entities/1/fields/5/generation/strategy/kind',
            message:
              'strategy "randomBoolean" cannot fill integer field users.age; it fills boolean fields. Change the type, or use one of: literal, sequence, randomInt, weightedChoice, faker, reference, formula, childrenSum',
          },
        ],
      },
    },
  ],
  [
    'rejects template and dateRange on other types',
    {
      given: edit((c) => {
        users(c).fields[5].generation.strategy = { kind: 'template', template: '{{id}}' };
        posts(c).fields[3].generation = { strategy: { kind: 'dateRange' } };
      }),
      want: {
        errors: [
          {
            path: '/entities/1/fields/5/generation/strategy/kind',
            message:
              'strategy "template" cannot fill integer field users.age; it fills string, text fields. Change the type, or use one of: literal, sequence, randomInt, weightedChoice, faker, reference, formula, childrenSum',
          },
          {
            path: '/entities/2/fields/3/generation/strategy/kind',
            message:
              'strategy "dateRange" cannot fill string field posts.title; it fills date, datetime fields. Change the type, or use one of: literal, sequence, weightedChoice, faker, template, reference, formula, styledText',
          },
        ],
      },
    },
  ],
  [
    'requires min ≤ max of randomInt and randomFloat',
    {
      given: edit((c) => {
        users(c).fields[5].generation.strategy.min = 100;
        users(c).fields[6].generation.strategy.max = -1;
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/5/generation/strategy/max', message: 'randomInt min (100) is greater than max (90) for users.age; make min ≤ max' },
          { path: '/entities/1/fields/6/generation/strategy/max', message: 'randomFloat min (0) is greater than max (-1) for users.score; make min ≤ max' },
        ],
      },
    },
  ],
  [
    'requires integer sequence steps on integer fields',
    {
      given: edit((c) => (users(c).fields[0].generation.strategy.step = 0.5)),
      want: {
        errors: [
          { path: '/entities/1/fields/0/generation/strategy/step', message: 'sequence step 0.5 does not fit integer field users.id; use an integer' },
        ],
      },
    },
  ],
  [
    'checks literal values against the field type',
    {
      given: edit((c) => {
        users(c).fields[5].generation.strategy = { kind: 'literal', value: '30' };
        users(c).fields[10].generation.strategy.value = null;
        users(c).fields[11].generation.strategy = { kind: 'literal', value: '2024-02-30T10:00:00Z' };
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/5/generation/strategy/value', message: 'literal value "30" does not fit integer field users.age; give an integer' },
          {
            path: '/entities/1/fields/10/generation/strategy/value',
            message: 'literal value null does not fit string field users.country; give a non-null value (the field is not nullable)',
          },
          {
            path: '/entities/1/fields/11/generation/strategy/value',
            message: 'literal value "2024-02-30T10:00:00Z" does not fit datetime field users.createdAt; give a datetime such as "2024-01-31T12:00:00Z"',
          },
        ],
      },
    },
  ],
  [
    'checks weightedChoice values against the field, enum values included',
    {
      given: edit((c) => {
        users(c).fields[8].generation = { strategy: { kind: 'weightedChoice', choices: [{ value: 'admin', weight: 1 }, { value: 'root', weight: 1 }] } };
        users(c).fields[9].generation.strategy.choices[1].value = 3;
      }),
      want: {
        errors: [
          {
            path: '/entities/1/fields/8/generation/strategy/choices/1/value',
            message: 'choice "root" does not fit enum field users.role; give one of its values: "admin", "member"',
          },
          { path: '/entities/1/fields/9/generation/strategy/choices/1/value', message: 'choice 3 does not fit string field users.plan; give a string' },
        ],
      },
    },
  ],
  [
    'rejects faker methods that do not exist',
    {
      given: edit((c) => {
        users(c).fields[2].generation.strategy.method = 'person.fristName';
        users(c).fields[3].generation.strategy.method = 'persn.lastName';
      }),
      want: {
        errors: [
          {
            path: '/entities/1/fields/2/generation/strategy/method',
            message: 'faker.person has no method "fristName" (did you mean "firstName"?)',
          },
          { path: '/entities/1/fields/3/generation/strategy/method', message: 'faker has no module "persn" (did you mean "person"?)' },
        ],
      },
    },
  ],
  [
    'checks template placeholders',
    {
      given: edit((c) => (users(c).fields[4].generation.strategy.template = '{{fristName}}{{email}}{{faker.person.nope}}@x.io')),
      want: {
        errors: [
          {
            path: '/entities/1/fields/4/generation/strategy/template',
            message:
              'template placeholder {{fristName}} names no field of entity "users" (did you mean "firstName"?); use {{fieldId}} with one of: id, teamId, firstName, lastName, email, age, score, active, role, plan, country, createdAt, managerId, or {{faker.module.method}}',
          },
          { path: '/entities/1/fields/4/generation/strategy/template', message: 'template of users.email uses {{email}}, its own value; name another field' },
          {
            path: '/entities/1/fields/4/generation/strategy/template',
            message: 'template placeholder {{faker.person.nope}}: faker.person has no method "nope"; methods: firstName, lastName, middleName, fullName, gender, sex, sexType, bio, prefix, suffix, jobTitle, jobDescriptor, jobArea, jobType, zodiacSign',
          },
        ],
      },
    },
  ],
  [
    'rejects templates that need each other',
    {
      given: edit((c) => (users(c).fields[2].generation.strategy = { kind: 'template', template: '{{email}}' })),
      want: {
        errors: [
          {
            path: '/entities/1/fields/2/generation/strategy/template',
            message: 'templates of entity "users" need each other\'s values (firstName → email → firstName); remove one of these placeholders',
          },
        ],
      },
    },
  ],
  [
    'checks dateRange bounds',
    {
      given: edit((c) => {
        users(c).fields[11].generation.strategy = { kind: 'dateRange', from: '2024-02-30', to: '2024-03-01' };
        posts(c).fields[4].generation = { strategy: { kind: 'dateRange', from: '2024-06-01', to: '2024-01-01T00:00:00Z' } };
        posts(c).fields.push({ id: 'dueOn', type: 'date', generation: { strategy: { kind: 'dateRange', from: '+1d' } } });
      }),
      want: {
        errors: [
          { path: '/entities/1/fields/11/generation/strategy/from', message: 'dateRange from "2024-02-30" of users.createdAt is not a real date or time' },
          {
            path: '/entities/2/fields/4/generation/strategy/from',
            message: 'dateRange of posts.publishedOn starts after it ends: from (2024-06-01) is later than to (2024-01-01T00:00:00Z); make from ≤ to',
          },
          {
            path: '/entities/2/fields/5/generation/strategy/from',
            message: 'dateRange of posts.dueOn starts after it ends: from (+1d) is later than to (now, the default); make from ≤ to',
          },
        ],
      },
    },
  ],
  [
    'checks reference strategies',
    {
      given: edit((c) => {
        posts(c).fields[2].generation.strategy.entity = 'editors';
        posts(c).fields[3].generation = { strategy: { kind: 'reference', entity: 'users', field: 'age' } };
      }),
      want: {
        errors: [
          { path: '/entities/2/fields/2/generation/strategy/entity', message: 'entity "editors" does not exist; use one of: teams, users, posts' },
          {
            path: '/entities/2/fields/3/generation/strategy/field',
            message: 'posts.title is string but users.age is integer; a field filled from another must have its type: change posts.title to "integer"',
          },
        ],
      },
    },
  ],
  [
    'rejects a non-reference strategy on a reference field',
    {
      given: edit((c) => (posts(c).fields[1].generation = { strategy: { kind: 'randomInt', min: 1, max: 10 } })),
      want: {
        errors: [
          {
            path: '/entities/2/fields/1/generation/strategy/kind',
            message: 'field posts.authorId references users.id, so its values come from that entity; remove the "randomInt" strategy or use kind "reference"',
          },
        ],
      },
    },
  ],
  [
    'collects every error at once',
    {
      given: edit((c) => {
        teams(c).id = 'Posts';
        users(c).fields[7].generation.strategy = { kind: 'randomInt' };
        c.generationDefaults.locale = 'xx';
      }),
      want: {
        errors: [
          { path: '/generationDefaults/locale', message: 'unknown locale "xx"; use a faker locale such as "en", "de" or "en_US"' },
          {
            path: '/entities/2/id',
            message:
              'entity ids must be unique: "posts" and "Posts" differ only in case (also at /entities/0/id); they become table names, compared ignoring case, so rename one',
          },
          {
            path: '/entities/1/fields/1/references/entity',
            message: 'entity "teams" does not exist; use one of: Posts, users, posts',
          },
          {
            path: '/entities/1/fields/7/generation/strategy/kind',
            message:
              'strategy "randomInt" cannot fill boolean field users.active; it fills integer, number fields. Change the type, or use one of: literal, randomBoolean, weightedChoice, faker, reference, formula',
          },
        ],
      },
    },
  ],

  // Warnings
  [
    'warns when a unique field has fewer values than rows',
    {
      given: edit((c) => {
        users(c).fields[8].generation = { uniqueValues: true };
        users(c).fields[7].generation.uniqueValues = true;
        users(c).uniqueKeys.push(['age']);
      }),
      want: {
        warnings: [
          {
            path: '/entities/1/fields/5',
            message:
              'users.age must be unique but has only 73 distinct values (randomInt range 18..90) while "users" plans up to 200 rows; "users" will get at most 73 rows. Widen the values or lower rowCount',
          },
          {
            path: '/entities/1/fields/7',
            message:
              'users.active must be unique but has only 2 distinct values (randomBoolean) while "users" plans up to 200 rows; "users" will get at most 2 rows. Widen the values or lower rowCount',
          },
          {
            path: '/entities/1/fields/8',
            message:
              'users.role must be unique but has only 2 distinct values (enum values) while "users" plans up to 200 rows; "users" will get at most 2 rows. Widen the values or lower rowCount',
          },
        ],
      },
    },
  ],
  [
    'warns when a unique reference has fewer parents than rows',
    {
      given: edit((c) => {
        posts(c).uniqueKeys = [['authorId']];
        posts(c).generation = { rowCount: 150 };
      }),
      want: {
        warnings: [
          {
            path: '/entities/2/fields/1',
            message:
              'posts.authorId must be unique but has only 100 distinct values (rows of "users") while "posts" plans up to 150 rows; "posts" will get at most 100 rows. Widen the values or lower rowCount',
          },
        ],
      },
    },
  ],
  [
    'warns when a one-to-one parent has fewer rows than the child',
    {
      given: edit((c) => {
        posts(c).fields[1].references.relation = 'one-to-one';
        posts(c).generation = { rowCount: 150 };
      }),
      want: {
        warnings: [
          {
            path: '/entities/2/fields/1/references/relation',
            message:
              'one-to-one reference posts.authorId → users.id: "posts" plans up to 150 rows but "users" may have only 100; each parent is used at most once, so "posts" will get fewer rows. Give "users" at least 150 rows or lower the rowCount of "posts"',
          },
        ],
      },
    },
  ],
  [
    'warns about huge row counts, missing primary keys, repeated choices and empty configs',
    {
      given: edit((c) => {
        teams(c).generation = { rowCount: { min: 1, max: 20_000_000 } };
        delete posts(c).primaryKey;
        users(c).fields[9].generation.strategy.choices.push({ value: 'free', weight: 1 });
      }),
      want: {
        warnings: [
          {
            path: '/entities/0/generation/rowCount',
            message: 'rowCount 20000000 is above 10,000,000; generation will take long and need much disk space',
          },
          {
            path: '/entities/1/fields/9/generation/strategy/choices/2',
            message: 'choice "free" of users.plan is listed twice (choices 0 and 2); merge them into one choice with the summed weight',
          },
          {
            path: '/entities/2',
            message: 'entity "posts" has no primaryKey; the runtime API reads, updates and deletes rows by primary key, so add one (e.g. ["id"])',
          },
        ],
      },
    },
  ],
  [
    'warns about a config without entities',
    {
      given: { formatVersion: 1, entities: [] },
      want: { warnings: [{ path: '/entities', message: 'the config has no entities, so nothing will be generated' }] },
    },
  ],
];

describe('validateConfig', () => {
  it('accepts a realistic config with every strategy kind without errors or warnings', () => {
    expect(validateConfig(base())).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('accepts the examples of the JSON Schema without errors or warnings', () => {
    const examples = (schemaConfigJsonSchema as { examples?: unknown[] }).examples ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(validateConfig(example)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('rejects a config nested deeper than 256 levels, pointing at where, without overflowing the stack', () => {
    let value: unknown = 1;
    for (let level = 0; level < 100_000; level++) value = [value];
    const config = edit((c) => (users(c).fields[0].generation = { strategy: { kind: 'literal', value } }));
    const result = validateConfig(config);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(1);
    // Seven containers hold the value (config, entities, entity, fields, field, generation, strategy); arrays fill the rest.
    expect(result.errors[0]!.path).toBe(`/entities/1/fields/0/generation/strategy/value${'/0'.repeat(256 - 7)}`);
    expect(result.errors[0]!.message).toBe('nested too deeply: a schema config may nest at most 256 levels of arrays and objects');
  });

  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const result = validateConfig(given);
      const errors = want.errors ?? [];
      expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors, warnings: want.warnings ?? [] });
      expect(result.valid).toBe(errors.length === 0);
    });
  }
});

describe('JSON pointers', () => {
  const cases: [string, { given: (string | number)[]; want: { path: string; described: string } }][] = [
    ['joins tokens', { given: ['entities', 0, 'fields', 12], want: { path: '/entities/0/fields/12', described: 'entities[0].fields[12]' } }],
    ['escapes ~ before /', { given: ['a/b', '~1'], want: { path: '/a~1b/~01', described: '["a/b"]["~1"]' } }],
    ['points at the whole document with no tokens', { given: [], want: { path: '', described: 'the config' } }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const path = pointer(...given);
      expect(path).toBe(want.path);
      expect(pointerTokens(path)).toEqual(given.map(String));
      expect(describePath(path)).toBe(want.described);
    });
  }
});

describe('entityOrder', () => {
  const cases: [string, { given: unknown; want: string[] }][] = [
    ['puts parents first; a nullable reference does not force an order', { given: base(), want: ['teams', 'users', 'posts'] }],
    [
      'moves a child after the parent it needs',
      { given: edit((c) => c.entities.reverse()), want: ['teams', 'users', 'posts'] },
    ],
    [
      'follows nullable references too when no cycle prevents it',
      {
        given: edit((c) => {
          delete teams(c).fields[2].references;
          users(c).fields[1].nullable = true;
          c.entities.reverse();
        }),
        want: ['teams', 'users', 'posts'],
      },
    ],
    [
      'follows reference strategies',
      {
        given: edit((c) => {
          posts(c).fields[1] = { id: 'authorId', type: 'integer', generation: { strategy: { kind: 'reference', entity: 'users', field: 'id' } } };
          c.entities.reverse();
        }),
        want: ['teams', 'users', 'posts'],
      },
    ],
    [
      'leaves entities stuck behind an unbreakable cycle at the end, in config order',
      {
        given: edit((c) => {
          teams(c).fields[2].nullable = false;
          c.entities.push({ id: 'tags', fields: [{ id: 'id', type: 'integer' }] });
        }),
        want: ['tags', 'teams', 'users', 'posts'],
      },
    ],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => expect(entityOrder(given as SchemaConfig)).toEqual(want));
  }
});

describe('resolveRowCount', () => {
  const config = base();
  const cases: [string, { given: [number, SchemaConfig['generationDefaults']]; want: { min: number; max: number } }][] = [
    ['takes the entity range', { given: [1, config.generationDefaults], want: { min: 100, max: 200 } }],
    ['falls back to the defaults', { given: [0, config.generationDefaults], want: { min: 50, max: 50 } }],
    ['falls back to 100 without defaults', { given: [0, undefined], want: { min: 100, max: 100 } }],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => expect(resolveRowCount(config.entities[given[0]]!, given[1])).toEqual(want));
  }
});

// Structural errors do not hide semantic ones: every sound part of a broken config is still checked.
describe('validateConfig: structural and semantic errors together', () => {
  const at = (...paths: string[]) => paths;
  const cases: [string, { given: unknown; want: string[] }][] = [
    [
      'an unknown type, short enum weights and a reference to a missing field, in three places',
      {
        given: edit((c) => {
          users(c).fields.push({ id: 'balance', type: 'money' });
          users(c).fields[8].weights = [1];
          posts(c).fields[1].references.field = 'missing';
        }),
        want: at('/entities/1/fields/8/weights', '/entities/1/fields/13/type', '/entities/2/fields/1/references/field'),
      },
    ],
    [
      'a broken strategy in one field and a semantic error in the next field of the same entity',
      {
        given: edit((c) => {
          users(c).fields[5].generation.strategy.min = 'eighteen';
          users(c).fields[6].generation.strategy = { kind: 'randomFloat', min: 100, max: 0, precision: 2 };
        }),
        want: at('/entities/1/fields/5/generation/strategy/min', '/entities/1/fields/6/generation/strategy/max'),
      },
    ],
    [
      'a broken index list of one entity and an unknown faker method in another',
      {
        given: edit((c) => {
          posts(c).indexes = [{ fields: 'authorId' }];
          teams(c).fields[1].generation.strategy.method = 'company.nme';
        }),
        want: at('/entities/0/fields/1/generation/strategy/method', '/entities/2/indexes/0/fields'),
      },
    ],
    [
      'a broken default row count beside an unknown locale and a template naming no field',
      {
        given: edit((c) => {
          c.generationDefaults.rowCount = -1;
          c.generationDefaults.locale = 'xx_YY';
          users(c).fields[4].generation.strategy.template = '{{firstNam}}@example.com';
        }),
        want: at('/generationDefaults/rowCount', '/generationDefaults/locale', '/entities/1/fields/4/generation/strategy/template'),
      },
    ],
    [
      'a field with a broken type is no reference target to complain about, but still a field others may name',
      {
        given: edit((c) => {
          users(c).fields[0] = { id: 'id', type: 'int' };
          users(c).fields[3].generation = { strategy: { kind: 'template', template: '{{id}}-{{firstName}}' } };
        }),
        want: at('/entities/1/fields/0/type'),
      },
    ],
    [
      'an entity without an id, and a weights error in another entity',
      {
        given: edit((c) => {
          delete teams(c).id;
          posts(c).fields.push({ id: 'mood', type: 'enum', values: ['a', 'b'], weights: [1, 2, 3] });
        }),
        want: at('/entities/0', '/entities/2/fields/5/weights'),
      },
    ],
    [
      'an unknown property on a field leaves the rest of that field checked',
      {
        given: edit((c) => {
          users(c).fields[5].colour = 'red';
          users(c).fields[5].generation.strategy = { kind: 'randomInt', min: 90, max: 18 };
        }),
        want: at('/entities/1/fields/5/colour', '/entities/1/fields/5/generation/strategy/max'),
      },
    ],
  ];
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const result = validateConfig(given);
      expect(result.valid).toBe(false);
      expect(result.errors.map((issue) => issue.path)).toEqual(want);
    });
  }

  it('names all three problems of the issue with their fixes', () => {
    const result = validateConfig(
      edit((c) => {
        users(c).fields.push({ id: 'balance', type: 'money' });
        users(c).fields[8].weights = [1];
        posts(c).fields[1].references.field = 'missing';
      }),
    );
    expect(result.errors.map((issue) => issue.message)).toEqual([
      'weights has 1 entries but values has 2; give one weight per value',
      expect.stringMatching(/^entities\[1\]\.fields\[13\]\.type must be one of .*; got "money"$/),
      expect.stringMatching(/^entity "users" has no field "missing"; use one of: id, teamId, /),
    ]);
  });
});

describe('validateConfig on randomly broken configs', () => {
  // Replace one value anywhere in a valid config with arbitrary JSON: validation never throws, keeps
  // every structural error, and reports the semantic errors of what stayed sound beside them.
  const paths: (string | number)[][] = [];
  const walk = (value: unknown, trail: (string | number)[]) => {
    paths.push(trail);
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...trail, i]));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...trail, key]);
  };
  walk(base(), []);

  it('never throws and never drops a structural error', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths.filter((trail) => trail.length > 0)), fc.jsonValue({ maxDepth: 2 }), (trail, replacement) => {
        const config = base() as Loose;
        let parent = config;
        for (const token of trail.slice(0, -1)) parent = parent[token];
        parent[trail.at(-1)!] = replacement;
        const result = validateConfig(config);
        for (const issue of checkConfigSchema(config)) expect(result.errors).toContainEqual(issue);
        expect(result.valid).toBe(result.errors.length === 0);
      }),
      { numRuns: 300 },
    );
  });
});
