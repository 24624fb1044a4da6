// Generator version 1 is frozen: these digests of the example configs and the every-option config,
// made in memory with a fixed reference date, must never change. A change here means an existing
// source would regenerate different data after an upgrade: put new behaviour behind a new version.
import { describe, expect, it } from 'vitest';
import { inMemoryDigests, pinnedConfigs, V1_PINS, V1_REFERENCE_DATE } from '../../fixtures/generator-v1-pins.ts';

describe('generator version 1 is pinned', () => {
  const configs = pinnedConfigs();

  it('pins the every-option config and the example configs', () => {
    expect(Object.keys(V1_PINS.inMemory).sort()).toEqual(Object.keys(configs).sort());
  });

  for (const [name, config] of Object.entries(configs)) {
    it(`${name}: version 1 (the default of the generation library) gives the pinned rows`, () => {
      expect(inMemoryDigests(config, {})).toEqual(V1_PINS.inMemory[name]);
    });
  }
});
