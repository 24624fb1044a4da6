// The breaking-change gate's classification, on planted edits of a copy of the real contract
// (generated/openapi.json, the bundled document): each edit a client would break on is breaking, on
// the side it happens, at the operation and JSON pointer that use it; additive edits are not.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyChanges, type Change } from '../../../src/api-changes/classify-changes.ts';

type Document = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, Schema> } };
type Schema = { type?: unknown; required?: string[]; enum?: unknown[]; properties: Record<string, Schema>; [key: string]: unknown };

const contract = JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8')) as Document;
const edited = (edit: (document: Document, schemas: Record<string, Schema>) => void): Document => {
  const copy = structuredClone(contract);
  edit(copy, copy.components.schemas);
  return copy;
};
const JSON_BODY = '/requestBody/content/application~1json/schema';
const JSON_200 = '/responses/200/content/application~1json/schema';

interface Want {
  type: Change['type'];
  side: Change['side'];
  operation: string;
  location: string;
  /** Set when the verdict is this tool's own rule on top of api-smart-diff: the rule's text. */
  rule?: RegExp;
}

const breaking: [string, { edit: Parameters<typeof edited>[0]; want: Want }][] = [
  [
    'a response field removed',
    {
      edit: (_, s) => {
        delete s.Project!.properties.icon;
        s.Project!.required = s.Project!.required!.filter((name) => name !== 'icon');
      },
      want: { type: 'breaking', side: 'response', operation: 'GET /public/v1/projects/{projectId}', location: `${JSON_200}/properties/icon` },
    },
  ],
  [
    'an optional response field removed (api-smart-diff: non-breaking)',
    {
      edit: (_, s) => void delete s.Source!.properties.runtimeTarget,
      want: {
        type: 'breaking',
        side: 'response',
        operation: 'GET /public/v1/projects/{projectId}/sources/{sourceId}',
        location: `${JSON_200}/properties/runtimeTarget`,
        rule: /^response field removed/,
      },
    },
  ],
  [
    'an optional request field made required',
    {
      edit: (_, s) => void s.ProjectCreate!.required!.push('description'),
      want: { type: 'breaking', side: 'request', operation: 'POST /public/v1/projects', location: `${JSON_BODY}/required/1` },
    },
  ],
  [
    'an enum value removed from a request field',
    {
      edit: (_, s) => void (s.SourceKind!.enum = ['postgres']),
      want: { type: 'breaking', side: 'request', operation: 'POST /public/v1/projects/{projectId}/sources', location: `${JSON_BODY}/properties/kind/enum/1` },
    },
  ],
  [
    'a response field made nullable (type list)',
    {
      edit: (_, s) => void (s.Project!.properties.name!.type = ['string', 'null']),
      want: { type: 'breaking', side: 'response', operation: 'GET /public/v1/projects/{projectId}', location: `${JSON_200}/properties/name/type`, rule: /response type widened by null/ },
    },
  ],
  [
    'a response field made nullable (anyOf with null)',
    {
      edit: (_, s) => void (s.Project!.properties.name = { anyOf: [{ type: 'string' }, { type: 'null' }] } as unknown as Schema),
      want: { type: 'breaking', side: 'response', operation: 'GET /public/v1/projects/{projectId}', location: `${JSON_200}/properties/name/anyOf/1` },
    },
  ],
  [
    'a request maxLength lowered',
    {
      edit: (_, s) => void (s.ProjectCreate!.properties.name!.maxLength = 100),
      want: { type: 'breaking', side: 'request', operation: 'POST /public/v1/projects', location: `${JSON_BODY}/properties/name/maxLength` },
    },
  ],
  [
    'a request maximum lowered',
    {
      edit: (_, s) => void (s.SourceCreate!.properties.rateLimitRpm!.maximum = 1000),
      want: { type: 'breaking', side: 'request', operation: 'POST /public/v1/projects/{projectId}/sources', location: `${JSON_BODY}/properties/rateLimitRpm/maximum` },
    },
  ],
  [
    'a request field no longer nullable',
    {
      edit: (_, s) => void (s.TeamApiKeyCreate!.properties.projectsScope!.type = 'array'),
      want: { type: 'breaking', side: 'request', operation: 'POST /api/api-keys', location: `${JSON_BODY}/properties/projectsScope/type` },
    },
  ],
  [
    'an operation removed',
    {
      edit: (d) => void delete d.paths['/public/v1/projects/{projectId}']!.delete,
      want: { type: 'breaking', side: 'operation', operation: 'DELETE /public/v1/projects/{projectId}', location: '/' },
    },
  ],
];

const additive: [string, { edit: Parameters<typeof edited>[0]; want: Want }][] = [
  [
    'an optional request field added',
    {
      edit: (_, s) => void (s.ProjectCreate!.properties.color = { type: 'string' } as Schema),
      want: { type: 'non-breaking', side: 'request', operation: 'POST /public/v1/projects', location: `${JSON_BODY}/properties/color` },
    },
  ],
  [
    'a new endpoint',
    {
      edit: (d) =>
        void (d.paths['/public/v1/things'] = {
          get: { operationId: 'listThings', responses: { 200: { description: 'Things.', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } },
        }),
      want: { type: 'non-breaking', side: 'operation', operation: 'GET /public/v1/things', location: '/' },
    },
  ],
  [
    'a new response field',
    {
      edit: (_, s) => void (s.Project!.properties.color = { type: 'string' } as Schema),
      want: { type: 'non-breaking', side: 'response', operation: 'GET /public/v1/projects/{projectId}', location: `${JSON_200}/properties/color` },
    },
  ],
  [
    'a request maxLength raised',
    {
      edit: (_, s) => void (s.ProjectCreate!.properties.name!.maxLength = 300),
      want: { type: 'non-breaking', side: 'request', operation: 'POST /public/v1/projects', location: `${JSON_BODY}/properties/name/maxLength` },
    },
  ],
  [
    'an enum value removed from a response field only',
    {
      edit: (_, s) => void (s.GenerationJob!.properties.status!.enum = ['queued', 'running', 'succeeded']),
      want: {
        type: 'non-breaking',
        side: 'response',
        operation: 'GET /public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}',
        location: `${JSON_200}/properties/status/enum/3`,
      },
    },
  ],
  [
    'a description reworded',
    {
      edit: (_, s) => void (s.Project!.description = 'A project: schemas and sources of a team.'),
      want: { type: 'annotation', side: 'response', operation: 'GET /public/v1/projects/{projectId}', location: `${JSON_200}/description` },
    },
  ],
];

const find = (changes: Change[], want: Want) => changes.find((change) => change.operation === want.operation && change.location === want.location);

describe('api:diff classification of planted breaking edits', () => {
  for (const [name, { edit, want }] of breaking) {
    it(`${name} is breaking on the ${want.side} side`, () => {
      const changes = classifyChanges(contract, edited(edit));
      const change = find(changes, want);
      expect(change, JSON.stringify(changes.map((c) => [c.type, c.operation, c.location]))).toMatchObject({ type: want.type, side: want.side, key: want.operation });
      if (want.rule) expect(change!.rule).toMatch(want.rule);
      // Every change is placed: components are reported where operations use them, never on their own.
      expect(changes.every((c) => c.operation !== undefined)).toBe(true);
    });
  }

  it('a security scheme moved to another header is breaking, named by its document pointer', () => {
    const after = edited(() => {}) as Document & { components: { securitySchemes: Record<string, { name: string }> } };
    after.components.securitySchemes.teamApiKey!.name = 'x-team-key';
    const changes = classifyChanges(contract, after);
    expect(changes).toEqual([
      expect.objectContaining({ type: 'breaking', side: 'document', key: '#/components/securitySchemes/teamApiKey', location: '#/components/securitySchemes/teamApiKey/name' }),
    ]);
  });
});

describe('api:diff classification of additive edits', () => {
  it('the contract against itself has no changes', () => expect(classifyChanges(contract, structuredClone(contract))).toEqual([]));

  for (const [name, { edit, want }] of additive) {
    it(`${name} is ${want.type}, nothing breaking`, () => {
      const changes = classifyChanges(contract, edited(edit));
      expect(find(changes, want)).toMatchObject({ type: want.type, side: want.side });
      expect(changes.filter((change) => change.type === 'breaking')).toEqual([]);
    });
  }

  it('a request field made nullable is not breaking (only responses widen against clients)', () => {
    const changes = classifyChanges(contract, edited((_, s) => void (s.ProjectCreate!.properties.icon!.type = ['string', 'null'])));
    // api-smart-diff calls every request type change breaking; the tool's own rule looks at the direction.
    expect(find(changes, { type: 'non-breaking', side: 'request', operation: 'POST /public/v1/projects', location: `${JSON_BODY}/properties/icon/type` })).toMatchObject({
      type: 'non-breaking',
      rule: expect.stringMatching(/request type widened/),
    });
    expect(changes.filter((change) => change.type === 'breaking')).toEqual([]);
  });
});
