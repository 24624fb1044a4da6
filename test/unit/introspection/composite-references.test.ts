// Composite references in drift and merge: sds diff reports a composite foreign key missing on
// either side or pointing elsewhere; init --merge takes the database's and keeps a hand-set pick.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { diffConfigs } from '../../../src/introspection/diff-config.ts';
import { mergeConfigs } from '../../../src/introspection/merge-config.ts';

function base(): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [
      {
        id: 'lines',
        primaryKey: ['o', 'n'],
        fields: [
          { id: 'o', type: 'integer' },
          { id: 'n', type: 'integer' },
        ],
      },
      {
        id: 'ships',
        primaryKey: ['id'],
        references: [{ fields: ['o', 'n'], entity: 'lines', targetFields: ['o', 'n'] }],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'o', type: 'integer' },
          { id: 'n', type: 'integer' },
        ],
      },
    ],
  };
}

describe('diffConfigs: composite references', () => {
  it('finds none when both sides agree', () => {
    expect(diffConfigs(base(), base())).toEqual([]);
  });

  it('reports one only in the database, only in the config, and with other actions', () => {
    const without = base();
    delete without.entities[1]!.references;
    expect(diffConfigs(without, base()).map((difference) => [difference.kind, difference.message])).toEqual([
      ['composite-reference', 'ships(o, n): no foreign key in the config, references lines(o, n) (on delete restrict, on update restrict) in the database'],
    ]);
    expect(diffConfigs(base(), without).map((difference) => difference.message)).toEqual([
      'ships(o, n): references lines(o, n) (on delete restrict, on update restrict) in the config, no foreign key in the database',
    ]);
    const cascading = base();
    cascading.entities[1]!.references![0]!.onDelete = 'cascade';
    expect(diffConfigs(base(), cascading).map((difference) => difference.message)).toEqual([
      'ships(o, n): references lines(o, n) (on delete restrict, on update restrict) in the config, references lines(o, n) (on delete cascade, on update restrict) in the database',
    ]);
  });
});

describe('mergeConfigs: composite references', () => {
  it("takes the database's composite references and keeps a hand-set pick", () => {
    const existing = base();
    existing.entities[1]!.references![0]!.pick = 'sequential';
    const fresh = base();
    fresh.entities[1]!.references![0]!.onDelete = 'cascade';
    const merged = mergeConfigs(existing, fresh).config;
    expect(merged.entities[1]!.references).toEqual([{ fields: ['o', 'n'], entity: 'lines', targetFields: ['o', 'n'], onDelete: 'cascade', pick: 'sequential' }]);
  });
});
