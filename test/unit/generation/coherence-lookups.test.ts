// The US ZIP codes read as JSON are the ones require('zipcodes') gives.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { usZipCodes } from '../../../src/generation/coherence/places.ts';

const require = createRequire(import.meta.url);

describe('US ZIP codes', () => {
  it('are read as JSON, and are the codes require() gives', () => {
    const read = usZipCodes();
    const required = require('zipcodes') as { codes: Record<string, { country: string }>; states: { abbr: Record<string, string> } };
    expect(read.via).toBe('json');
    const us = Object.fromEntries(Object.entries(required.codes).filter(([, zip]) => zip.country === 'US'));
    expect(Object.keys(read.codes)).toEqual(Object.keys(us));
    expect(read.codes).toEqual(us);
    expect(read.abbr).toEqual(required.states.abbr);
  });
});
