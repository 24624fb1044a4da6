// Generator version 1 is frozen: these digests of the example configs and the every-option config,
// made in memory with a fixed reference date, must never change. A change here means an existing
// source would regenerate different data after an upgrade: put new behaviour behind a new version.
// Versions 2 to 5 are pinned too, against dependency upgrades that would change their data.
import { describe, expect, it } from 'vitest';
import { inMemoryDigests, pinnedConfigs, v3PinnedConfigs, v4PinnedConfigs, v5PinnedConfigs, V1_PINS, V2_PINS, V3_PINS, V4_PINS, V5_PINS } from '../../fixtures/generator-v1-pins.ts';
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

describe('generator version 3 is pinned', () => {
  const configs = v3PinnedConfigs();

  it('pins version 2’s configs and the coherent config in de, fr, en_AU, fi and zh_CN', () => {
    expect(Object.keys(V3_PINS).sort()).toEqual(Object.keys(configs).sort());
  });

  for (const [name, config] of Object.entries(configs)) {
    it(`${name}: version 3 gives the pinned rows`, () => {
      expect(inMemoryDigests(config, { generatorVersion: 3 })).toEqual(V3_PINS[name]);
    });
  }

  it('gives the rows of version 2 for `en` configs (text and places changed elsewhere only)', () => {
    for (const name of Object.keys(V2_PINS)) expect(V3_PINS[name], name).toEqual(V2_PINS[name]);
    const fr = v3PinnedConfigs()['coherent-fr']!;
    expect(inMemoryDigests(fr, { generatorVersion: 3 }).customers).not.toBe(inMemoryDigests(fr, { generatorVersion: 2 }).customers);
  });
});

describe('generator version 4 is pinned', () => {
  const configs = v4PinnedConfigs();

  it('pins version 3’s configs, the lifecycle schemas and the clinic with billing', () => {
    expect(Object.keys(V4_PINS).sort()).toEqual(Object.keys(configs).sort());
  });

  for (const [name, config] of Object.entries(configs)) {
    it(`${name}: version 4 gives the pinned rows`, () => {
      expect(inMemoryDigests(config, { generatorVersion: 4 })).toEqual(V4_PINS[name]);
    });
  }

  it('differs from version 3 where its meanings apply, and keeps version 3’s rows where none do (the every-option config’s tags)', () => {
    expect(V4_PINS.coherent!.customers).not.toBe(V3_PINS.coherent!.customers);
    expect(V4_PINS['every-option']!.tags).toBe(V3_PINS['every-option']!.tags);
  });
});

describe('generator version 5 is pinned', () => {
  const configs = v5PinnedConfigs();

  it('pins version 4’s configs and the schemas of its rules by table context', () => {
    expect(Object.keys(V5_PINS).sort()).toEqual(Object.keys(configs).sort());
  });

  for (const [name, config] of Object.entries(configs)) {
    it(`${name}: version 5 gives the pinned rows`, () => {
      expect(inMemoryDigests(config, { generatorVersion: 5 })).toEqual(V5_PINS[name]);
    });
  }

  it('differs from version 4 where its rules by context apply, and keeps version 4’s rows where none do', () => {
    expect(V5_PINS['clinic-billing']!.clinics).not.toBe(V4_PINS['clinic-billing']!.clinics);
    expect(V5_PINS['clinic-billing']!.owners).toBe(V4_PINS['clinic-billing']!.owners);
    expect(V5_PINS.coherent).toEqual(V4_PINS.coherent);
  });
});
