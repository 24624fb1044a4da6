// Generator version 1 is frozen: these digests of the example configs and the every-option config,
// made in memory with a fixed reference date, must never change. A change here means an existing
// source would regenerate different data after an upgrade: put new behaviour behind a new version.
// Version 2's digests are pinned too, against dependency upgrades that would change its data.
import { describe, expect, it } from 'vitest';
import { inMemoryDigests, pinnedConfigs, V1_PINS, V2_PINS } from '../../fixtures/generator-v1-pins.ts';
import { coherentConfig } from '../../fixtures/coherent-config.ts';

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

describe('generator version 2 is pinned', () => {
  const configs = { ...pinnedConfigs(), coherent: coherentConfig() };

  for (const [name, config] of Object.entries(configs)) {
    it(`${name}: version 2 gives the pinned rows`, () => {
      expect(inMemoryDigests(config, { generatorVersion: 2 })).toEqual(V2_PINS[name]);
    });
  }
});
