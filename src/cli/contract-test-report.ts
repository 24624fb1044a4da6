// The contract test's results for CI: JUnit XML (one testcase per check; a failure carries its notes,
// a skip its reason) and JSON, each written to a file.
import fs from 'node:fs';
import type { CheckResult } from './contract-test-run.ts';

const escapeXml = (text: string) =>
  text
    // Characters XML 1.0 cannot hold at all (control characters other than tab and line breaks).
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** JUnit XML as CI servers read it: a `testsuites` root holding one `testsuite` named `suite`. */
export function toJunitXml(results: CheckResult[], suite: string): string {
  const count = (outcome: CheckResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const seconds = (ms = 0) => (ms / 1000).toFixed(3);
  const total = results.reduce((sum, result) => sum + (result.durationMs ?? 0), 0);
  const cases = results.map((result) => {
    const attributes = `name="${escapeXml(result.name)}" classname="${escapeXml(result.operation === '-' ? suite : result.operation)}" time="${seconds(result.durationMs)}"`;
    const notes = escapeXml(result.notes.join('\n'));
    if (result.outcome === 'fail') return `    <testcase ${attributes}>\n      <failure message="${escapeXml(result.notes[0] ?? 'failed')}">${notes}</failure>\n    </testcase>`;
    if (result.outcome === 'skip') return `    <testcase ${attributes}>\n      <skipped message="${escapeXml(result.notes[0] ?? 'skipped')}"/>\n    </testcase>`;
    return `    <testcase ${attributes}/>`;
  });
  const counts = `tests="${results.length}" failures="${count('fail')}" errors="0" skipped="${count('skip')}" time="${seconds(total)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sds contract-test" ${counts}>`,
    `  <testsuite name="${escapeXml(suite)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Writes the report files asked for; `suite` names the JUnit suite (the server tested). */
export function writeReports(report: { ok: boolean; results: CheckResult[] }, files: { junit?: string; json?: string }, suite: string): void {
  if (files.junit) fs.writeFileSync(files.junit, toJunitXml(report.results, suite));
  if (files.json) fs.writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
}
