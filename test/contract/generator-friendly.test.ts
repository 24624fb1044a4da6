// The contract reads well to client generators (issue 28, item 4): no schema form kubb overflows on,
// no component named like a global or a barrel file, string header parameters, key schemes told
// apart, and a declared `Location` on every response that sends one, holding what it declares.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

type Node = Record<string, unknown>;
const document = openApiDocument() as unknown as Node & { paths: Record<string, Record<string, Node>>; components: Record<string, Record<string, Node>> };

/** Names a generated type or file may not take: JavaScript/TypeScript/DOM globals, and barrel files. */
const RESERVED = ['index', 'Error', 'Date', 'Record', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Map', 'Set', 'Promise', 'Response', 'Request', 'Headers', 'File', 'Blob', 'URL', 'Event', 'Location', 'Partial', 'Omit', 'Pick', 'Symbol', 'JSON', 'Function'];
/** Old names kept as deprecated aliases of their replacements, so code naming them keeps compiling. */
const ALIASES: Record<string, string> = { Error: 'ErrorBody' };

function walk(node: unknown, visit: (node: Node, pointer: string) => void, pointer = ''): void {
  if (Array.isArray(node)) node.forEach((item, index) => walk(item, visit, `${pointer}/${index}`));
  else if (node && typeof node === 'object') {
    visit(node as Node, pointer);
    for (const [key, value] of Object.entries(node)) walk(value, visit, `${pointer}/${key}`);
  }
}

const resolve = (node: Node): Node => {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, kind, name] = ref.split('/').slice(1);
  return resolve(document.components[kind!]![name!]!);
};

describe('the bundled contract, as generators read it', () => {
  it('names no schema like a global or a barrel file, except deprecated aliases of new names', () => {
    const names = Object.keys(document.components.schemas!);
    const reserved = names.filter((name) => RESERVED.some((word) => word.toLowerCase() === name.toLowerCase()));
    expect(reserved).toEqual(Object.keys(ALIASES));
    for (const [old, replacement] of Object.entries(ALIASES)) {
      expect(document.components.schemas![old]).toMatchObject({ deprecated: true, allOf: [{ $ref: `#/components/schemas/${replacement}` }] });
      expect(names).toContain(replacement);
    }
    expect(names).toContain('SchemaConfigIndex');
    // No operation uses an alias: generated code meets only the new names.
    expect(JSON.stringify(document.paths)).not.toContain('"#/components/schemas/Error"');
  });

  it('has no $ref with sibling keywords and no list of types beside null (Seed is an anyOf)', () => {
    const problems: string[] = [];
    walk(document, (node, pointer) => {
      if (typeof node.$ref === 'string' && Object.keys(node).length > 1) problems.push(`${pointer}: $ref beside ${Object.keys(node).join(', ')}`);
      if (Array.isArray(node.type) && node.type.filter((type) => type !== 'null').length > 1) problems.push(`${pointer}: type ${JSON.stringify(node.type)}`);
    });
    expect(problems).toEqual([]);
    expect(document.components.schemas!.Seed).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
  });

  it('declares every header parameter a string', () => {
    const headers: string[] = [];
    walk(document, (node, pointer) => {
      if (node.in === 'header' && node.schema) headers.push(`${pointer} ${node.name}: ${String((node.schema as Node).type)}`);
    });
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.filter((line) => !line.endsWith(': string'))).toEqual([]);
  });

  it('tells the two API key schemes apart by kind and prefix', () => {
    const schemes = document.components.securitySchemes!;
    expect(schemes.teamApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key', 'x-sds-key-kind': 'team', 'x-sds-key-prefix': 'svc_api_' });
    expect(schemes.sourceApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key', 'x-sds-key-kind': 'source', 'x-sds-key-prefix': 'svc_src_' });
    expect(schemes.teamApiKey!.description).toContain('svc_api_');
    expect(schemes.sourceApiKey!.description).toContain('svc_src_');
  });
});

describe('Location and Last-Event-ID on a live server', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('generator-friendly');
  });
  afterAll(() => t?.stop());

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);

  /** Asserts the answer's Location is declared on its operation's response, valid for its schema, and resolves. */
  async function expectLocation(template: string, method: string, response: Response, key: string | null = t.teamKey): Promise<string> {
    const declared = resolve(document.paths[template]![method]!.responses as Node);
    const headers = (resolve((declared as Record<string, Node>)[String(response.status)]!).headers ?? {}) as Record<string, Node>;
    expect(Object.keys(headers), `${method} ${template} ${response.status}`).toContain('Location');
    const header = resolve(headers.Location!);
    expect(header.required).toBe(true);
    const location = response.headers.get('location');
    expect(location, `${method} ${template} ${response.status} sends Location`).toBeTruthy();
    const validate = ajv.compile(header.schema as object);
    expect(validate(location), JSON.stringify(validate.errors)).toBe(true);
    expect((header.schema as Node).format).toBe('uri-reference');
    const target = await fetch(new URL(location!, t.url), { headers: key === null ? {} : { 'x-api-key': key } });
    expect(target.status, location!).toBe(200);
    return location!;
  }

  it('sends a declared, resolving Location on every creation and on a queued regeneration', async () => {
    const api = t.client(t.teamKey);
    const project = await api.POST('/public/v1/projects', { body: { name: 'Locations' } });
    expect(project.response.status).toBe(201);
    expect(await expectLocation('/public/v1/projects', 'post', project.response)).toBe(`/public/v1/projects/${project.data!.id}`);
    const projectId = project.data!.id;

    const schema = await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blog' } });
    expect(schema.response.status).toBe(201);
    await expectLocation('/public/v1/projects/{projectId}/schemas', 'post', schema.response);
    const schemaId = schema.data!.id;

    const version = await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId } }, body: { schema: blogConfig() } });
    expect(version.response.status).toBe(201);
    expect(await expectLocation('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', 'post', version.response)).toMatch(/\/versions\/1$/);

    const source = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Blog', kind: 'postgres', schemaVersionId: version.data!.id, seed: 7, requireAuth: false, generatorConfig: { rowCounts: { users: 5 } } },
    });
    expect(source.response.status, JSON.stringify(source.data)).toBe(201);
    expect(source.data!.seed).toBe('7');
    await expectLocation('/public/v1/projects/{projectId}/sources', 'post', source.response);
    const sourceId = source.data!.id;
    await waitForLatestJob(t, projectId, sourceId);

    const regenerated = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId } }, body: { seed: 'again' } });
    expect(regenerated.response.status).toBe(202);
    const job = await expectLocation('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', 'post', regenerated.response);
    expect(job).toBe(`/public/v1/projects/${projectId}/sources/${sourceId}/generation-jobs/${regenerated.data!.id}`);
    await waitForLatestJob(t, projectId, sourceId);

    const row = await fetch(`${t.url}/runtime/${sourceId}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 9001, email: 'location@example.com', firstName: 'Lo', role: 'reader', active: true, createdAt: '2024-01-01T00:00:00Z' }),
    });
    expect(row.status, await row.clone().text()).toBe(201);
    // The source has requireAuth: false; a team key on the runtime API would be refused.
    expect(await expectLocation('/runtime/{sourceId}/{table}', 'post', row, null)).toBe(`/runtime/${sourceId}/users/9001`);
  }, 120_000);

  it('takes Last-Event-ID as text holding a non-negative integer, and answers anything else 400', async () => {
    const api = t.client(t.teamKey);
    const projectId = (await api.GET('/public/v1/projects')).data!.find((project) => project.name === 'Locations')!.id;
    const sourceId = (await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } } })).data![0]!.id;
    const url = `${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/generation-events`;
    const all = (await (await fetch(url, { headers: { 'x-api-key': t.teamKey } })).json()) as { id: number }[];
    expect(all.length).toBeGreaterThan(2);
    const ids = all.map((event) => event.id);

    const typed = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', {
      params: { path: { projectId, sourceId }, header: { 'Last-Event-ID': String(ids[1]) } },
    });
    expect(typed.response.status).toBe(200);
    expect((typed.data as { id: number }[]).map((event) => event.id)).toEqual(ids.slice(2));
    for (const [value, want] of [[` ${ids[0]} `, ids.slice(1)], ['0', ids], ['1e20', []]] as const) {
      const response = await fetch(url, { headers: { 'x-api-key': t.teamKey, 'last-event-id': value } });
      expect(response.status, value).toBe(200);
      expect(((await response.json()) as { id: number }[]).map((event) => event.id), value).toEqual(want);
    }
    for (const value of ['abc', '-1', '1.5', ' ']) {
      const response = await fetch(url, { headers: { 'x-api-key': t.teamKey, 'last-event-id': value } });
      expect(response.status, value).toBe(400);
      expect(await response.json(), value).toEqual({
        error: 'Invalid request: headers.last-event-id must be a non-negative integer (the id of the last event received)',
        details: [{ path: '/headers/last-event-id', message: 'must be a non-negative integer (the id of the last event received)' }],
      });
    }
  }, 60_000);
});
