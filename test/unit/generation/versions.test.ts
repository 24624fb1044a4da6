import { describe, expect, it } from 'vitest';
import { GENERATOR_VERSIONS, VERSIONS, hasFeature } from '../../../src/generation/versions.ts';
import { openApiDocument } from '../../../src/contract.ts';

describe('generator versions table', () => {
  it("holds exactly the contract's GeneratorVersion enum", () => {
    const schema = (openApiDocument() as unknown as { components: { schemas: Record<string, { enum?: number[] }> } }).components.schemas.GeneratorVersion;
    expect(GENERATOR_VERSIONS).toEqual(schema?.enum);
  });

  it('describes versions 1–3 as they always were', () => {
    const features = (version: 1 | 2 | 3) => ({
      coherentRows: hasFeature(version, 'coherentRows'),
      childrenAfterParents: hasFeature(version, 'childrenAfterParents'),
      localeText: hasFeature(version, 'localeText'),
      postalCodesAbroad: hasFeature(version, 'postalCodesAbroad'),
      auditByDefault: hasFeature(version, 'auditByDefault'),
      rules: VERSIONS[version].rules,
    });
    expect(features(1)).toEqual({ coherentRows: false, childrenAfterParents: false, localeText: false, postalCodesAbroad: false, auditByDefault: false, rules: ['named'] });
    expect(features(2)).toEqual({ coherentRows: true, childrenAfterParents: true, localeText: false, postalCodesAbroad: false, auditByDefault: true, rules: ['coherent', 'named'] });
    expect(features(3)).toEqual({ coherentRows: true, childrenAfterParents: true, localeText: true, postalCodesAbroad: true, auditByDefault: true, rules: ['coherent', 'named'] });
  });
});
