// `sds contract-test` proven against planted mutants: the real service behind a small mutating HTTP
// proxy, one mutant kind per run, and each must fail the run naming the check that saw it. Prints the
// table mutants × detection. Also: the JUnit XML of a run is well-formed and its counts match.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJunitXml } from '../../src/cli/contract-test-report.ts';
import { formatTable, type CheckResult } from '../../src/cli/contract-test-run.ts';
import { runContractTest, type ContractTestReport } from '../../src/cli/contract-test.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

interface Exchange {
  method: string;
  path: string;
  query: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Changes one kind of response; returns the exchange unchanged when it is not the mutant's target. */
type Mutant = (exchange: Exchange) => Exchange;

const PROJECT = /^\/public\/v1\/projects\/[0-9a-f-]{36}$/;
const SOURCE = /^\/public\/v1\/projects\/[0-9a-f-]{36}\/sources\/[0-9a-f-]{36}$/;
const contentType = (exchange: Exchange) => exchange.headers['content-type'] ?? '';
const withBody = (exchange: Exchange, change: (body: Record<string, unknown>) => void): Exchange => {
  const body = JSON.parse(exchange.body) as Record<string, unknown>;
  change(body);
  return { ...exchange, body: JSON.stringify(body) };
};
const withoutHeader = (exchange: Exchange, name: string): Exchange => {
  const headers = { ...exchange.headers };
  delete headers[name];
  return { ...exchange, headers };
};

/** Each mutant kind of issue 28 and the check that must name it. */
const MUTANTS: [string, { mutant: Mutant; caughtBy: RegExp }][] = [
  [
    'wrong success status (createProject 201 → 200)',
    { mutant: (e) => (e.method === 'POST' && e.path === '/public/v1/projects' && e.status === 201 ? { ...e, status: 200 } : e), caughtBy: /^create a project$/ },
  ],
  [
    'missing required response field (getProject without slug)',
    { mutant: (e) => (e.method === 'GET' && PROJECT.test(e.path) && e.status === 200 ? withBody(e, (body) => delete body.slug) : e), caughtBy: /^read the project$/ },
  ],
  [
    'wrong type (getSource rateLimitRpm as a string)',
    { mutant: (e) => (e.method === 'GET' && SOURCE.test(e.path) && e.status === 200 ? withBody(e, (body) => (body.rateLimitRpm = String(body.rateLimitRpm))) : e), caughtBy: /^read the generated source$/ },
  ],
  [
    'X-Total-Count not a count (listProjects: "many")',
    { mutant: (e) => (e.method === 'GET' && e.path === '/public/v1/projects' && e.status === 200 ? { ...e, headers: { ...e.headers, 'x-total-count': 'many' } } : e), caughtBy: /^list projects$/ },
  ],
  [
    'X-Total-Count missing (listSchemas)',
    { mutant: (e) => (e.method === 'GET' && /\/schemas$/.test(e.path) && e.status === 200 ? withoutHeader(e, 'x-total-count') : e), caughtBy: /^list schemas$/ },
  ],
  [
    'Location pointing elsewhere (createProject)',
    {
      mutant: (e) => (e.method === 'POST' && e.path === '/public/v1/projects' && e.status === 201 ? { ...e, headers: { ...e.headers, location: '/public/v1/projects/00000000-0000-4000-8000-000000000000' } } : e),
      caughtBy: /^create a project$/,
    },
  ],
  ['Retry-After missing on 429', { mutant: (e) => (e.status === 429 ? withoutHeader(e, 'retry-after') : e), caughtBy: /^runtime: 429 with Retry-After/ }],
  [
    'CSV export with a wrong column count',
    { mutant: (e) => (contentType(e).startsWith('text/csv') ? { ...e, body: e.body.replace(/\n/, '\nextra,') } : e), caughtBy: /^runtime: CSV export/ },
  ],
  [
    'JSON Lines export with a line that is not JSON',
    { mutant: (e) => (contentType(e).startsWith('application/x-ndjson') ? { ...e, body: e.body.replace(/\n/, '\n{not json\n') } : e), caughtBy: /^runtime: JSON Lines export/ },
  ],
  [
    'event stream with an event without id',
    { mutant: (e) => (contentType(e).startsWith('text/event-stream') ? { ...e, body: e.body.replace(/^id: \d+\n/, '') } : e), caughtBy: /^stream generation events/ },
  ],
  [
    // The main contract's rows are untyped; the source's own document types them, and its run catches this.
    "a row of the wrong type (a source document's page of authors, email a number)",
    {
      mutant: (e) =>
        e.method === 'GET' && /^\/runtime\/[0-9a-f-]{36}\/authors$/.test(e.path) && e.query === '?limit=5' && e.status === 200
          ? withBody(e, (body) => ((body.data as Record<string, unknown>[])[0]!.email = 42))
          : e,
      caughtBy: /^source document: list\w+: a page of authors$/,
    },
  ],
  [
    '401 with the wrong error text',
    { mutant: (e) => (e.status === 401 && e.body.includes('"API key required"') ? { ...e, body: e.body.replace('API key required', 'Unauthorized') } : e), caughtBy: /^401 without a credential: listProjects$/ },
  ],
];

/** A proxy in front of `target` that buffers each answer and lets `mutant` change it. */
async function startProxy(target: string, mutant: Mutant): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const url = new URL(req.url!, target);
    const exchange = mutant({
      method: req.method!,
      path: url.pathname,
      query: url.search,
      status: upstream.status,
      headers: Object.fromEntries([...upstream.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))),
      body: await upstream.text(),
    });
    res.writeHead(exchange.status, exchange.headers);
    res.end(exchange.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let t: TestService;
const detections: [string, string][] = [];
const failedChecks = (report: ContractTestReport) => report.results.filter((result) => result.outcome === 'fail');

beforeAll(async () => {
  // Many runs in a minute: no management budget and no failed-authentication budget in the way.
  t = await startTestService('sdk_contract_mutants', { managementRateLimitRpm: 0, authFailureLimit: 0 });
});
afterAll(async () => {
  console.log(['mutant | caught by', '--- | ---', ...detections.map(([mutant, by]) => `${mutant} | ${by}`)].join('\n'));
  await t?.stop();
});

describe('sds contract-test against planted mutants', () => {
  it('passes through a proxy that changes nothing', async () => {
    const proxy = await startProxy(t.url, (exchange) => exchange);
    try {
      const report = await runContractTest({ baseUrl: proxy.url, teamKey: t.teamKey, adminToken: ADMIN_TOKEN, timeoutMs: 30_000 });
      expect(failedChecks(report), formatTable(report.results)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 180_000);

  for (const [name, { mutant, caughtBy }] of MUTANTS) {
    it(`catches: ${name}`, async () => {
      const proxy = await startProxy(t.url, mutant);
      try {
        const report = await runContractTest({ baseUrl: proxy.url, teamKey: t.teamKey, adminToken: ADMIN_TOKEN, timeoutMs: 30_000 });
        const failed = failedChecks(report);
        detections.push([name, failed.filter((check) => caughtBy.test(check.name)).map((check) => `${check.name}: ${check.notes.join('; ')}`).join(' / ') || 'NOT CAUGHT']);
        expect(report.ok).toBe(false);
        expect(failed.map((check) => check.name), formatTable(report.results)).toEqual(expect.arrayContaining([expect.stringMatching(caughtBy)]));
      } finally {
        await proxy.close();
      }
    }, 180_000);
  }
});

describe('JUnit XML', () => {
  const results: CheckResult[] = [
    { name: 'create a project', operation: 'POST /public/v1/projects', status: 201, outcome: 'pass', notes: [], durationMs: 12 },
    { name: 'list <projects> & "more"', operation: 'GET /public/v1/projects', status: 200, outcome: 'fail', notes: ['header X-Total-Count "many" is not an integer', 'second note'], durationMs: 3 },
    { name: 'admin API', operation: '-', outcome: 'skip', notes: ['no --admin-token'] },
  ];

  it('is well-formed, one testcase per check, with counts that match', () => {
    const xml = toJunitXml(results, 'sds contract test of http://sds.test');
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toMatch(/<testsuite name="sds contract test of http:\/\/sds.test" tests="3" failures="1" errors="0" skipped="1" time="0.015">/);
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml.match(/<skipped /g)).toHaveLength(1);
    expect(xml).toContain('<failure message="header X-Total-Count &quot;many&quot; is not an integer">header X-Total-Count &quot;many&quot; is not an integer\nsecond note</failure>');
    expect(xml).toContain('name="list &lt;projects&gt; &amp; &quot;more&quot;"');
  });
});

/** Tags balance, attributes are quoted, and text holds no raw `<` or bare `&` (enough for what toJunitXml writes). */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const match of body.matchAll(token)) {
    const [, closing, name, , selfClosing, text, stray] = match;
    if (stray) return false;
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) return false;
      if (stack.length === 0 && text.trim()) return false;
      continue;
    }
    if (closing) {
      if (stack.pop() !== name) return false;
    } else if (!selfClosing) stack.push(name!);
  }
  return stack.length === 0;
}
