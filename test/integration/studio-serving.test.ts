// /studio as served: the built page under a Content-Security-Policy of its own origin, hashed assets
// cached for good, and a clear 503 when the studio was never built. The page itself is exercised in
// a browser by test/studio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioCsp, studioRouter } from '../../src/http/studio.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { ensureStudioBuilt } from '../studio/browser.ts';

let t: TestService;
beforeAll(async () => {
  [t] = await Promise.all([startTestService('studio_serving'), ensureStudioBuilt()]);
}, 180_000);
afterAll(() => t?.stop());

describe('/studio', () => {
  it('serves the page with the security headers and a policy that allows its own origin and its own style nonce only', async () => {
    const response = await fetch(`${t.url}/studio`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy')!;
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(policy).toBe(studioCsp(nonce));
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toContain('unsafe');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page).toContain('<title>sds Studio</title>');
    // The page carries its response's nonce, and every response a new one.
    expect(page).toContain(`<meta name="sds-style-nonce" content="${nonce}" />`);
    const again = (await fetch(`${t.url}/studio/`)).headers.get('content-security-policy');
    expect(again).not.toBe(policy);
    // Every script and stylesheet is a file of the studio, under /studio/assets.
    const assets = [...page.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/studio\/assets\//);
      const file = await fetch(`${t.url}${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('content-security-policy')).toBe(studioCsp());
    }
  });

  it('answers a file that is not there with 404 JSON', async () => {
    const response = await fetch(`${t.url}/studio/assets/nothing-here.js`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Route GET /studio/assets/nothing-here.js not found' });
  });

  it('answers 503, saying how to build it, when the studio was not built', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-studio-'));
    const app = express().use(studioRouter(`${empty}/`));
    const server = app.listen(0);
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/studio`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: 'The studio is not built: run `npm run build:studio` (npm ci builds it)' });
    } finally {
      server.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
