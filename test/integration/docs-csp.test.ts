// /docs under a Content-Security-Policy (issue 23, item 10): script injected into the reference page
// (through the document, a markdown description, a crafted URL) must not run, while the page itself
// (Swagger UI: its bundle, its init file, its inline styles) still loads and renders. The header
// check and the page's assets run everywhere; the render in Chromium where it is installed.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract.ts';
import { repoRoot } from '../helpers/sdk-build.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { chromiumPath } from '../studio/browser.ts';
import { createHash } from 'node:crypto';

let t: TestService;
beforeAll(async () => {
  t = await startTestService('docs_csp');
});
afterAll(() => t?.stop());

/** The policy's directives by name, each a list of its sources. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy, 'Content-Security-Policy header').toBeTruthy();
  return new Map(
    policy!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('/docs', () => {
  it('answers under a policy that runs this origin’s scripts only', async () => {
    const response = await fetch(`${t.url}/docs/`);
    expect(response.status).toBe(200);
    const policy = directives(response.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // "Try it out" reaches this origin and the document's own server.
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://localhost:3000']);
    // Without a trailing slash: the same page (or the redirect to it), under the same rules.
    const bare = await fetch(`${t.url}/docs`, { redirect: 'manual' });
    expect([200, 301]).toContain(bare.status);
    if (bare.status === 200) expect(bare.headers.get('content-security-policy')).toBe(response.headers.get('content-security-policy'));
  });

  it('holds no inline script, and every script and stylesheet it names is served from this origin', async () => {
    const html = await (await fetch(`${t.url}/docs/`)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    const assets: string[] = [];
    for (const [, attributes, body] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes!)?.[1];
      expect(src, `inline script: ${body!.slice(0, 80)}`).toBeDefined();
      expect(body!.trim()).toBe('');
      assets.push(src!);
    }
    for (const [, href] of html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/gi)) assets.push(href!);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    for (const asset of assets) {
      const url = new URL(asset, `${t.url}/docs/`);
      expect(url.origin, asset).toBe(new URL(t.url).origin);
      const served = await fetch(url);
      expect(served.status, asset).toBe(200);
    }
    // The validator badge would load an image from validator.swagger.io (and tell it the document's address).
    const init = await (await fetch(`${t.url}/docs/swagger-ui-init.js`)).text();
    expect(init).toMatch(/"validatorUrl": null/);
    expect(init).toMatch(/"url": "\/openapi\.json"/);
  });
});

const executable = chromiumPath();

describe.skipIf(!executable)('/docs in Chromium under its policy', () => {
  it('renders the reference with no policy violation', async () => {
    const profile = fs.mkdtempSync(path.join(repoRoot, '.tmp/chromium-docs-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: executable!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${t.url}/docs`);
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 20_000 });
      expect(await page.locator('.swagger-ui .info .title').innerText()).toContain(openApiDocument().info.title);
      expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
      // An inline script planted in the page does not run.
      await page.evaluate("(() => { const script = document.createElement('script'); script.textContent = 'window.injected = true'; document.body.appendChild(script); })()");
      expect(await page.evaluate('window.injected')).toBeUndefined();
      // The one violation expected is the planted script's, named by its hash; anything else is the page's own.
      const planted = createHash('sha256').update('window.injected = true').digest('base64');
      expect(problems.filter((problem) => !problem.includes(planted))).toEqual([]);
      expect(problems.some((problem) => problem.includes(planted))).toBe(true);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);
});
