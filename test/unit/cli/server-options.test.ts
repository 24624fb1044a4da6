// The HTTP commands find the server and the team key under the README's names (SDS_URL, SDS_KEY)
// and under the names the CLI read first (SDS_BASE_URL, SDS_TEAM_KEY).
import { describe, expect, it } from 'vitest';
import { resolveServer } from '../../../src/cli/server-options.ts';

describe('resolveServer', () => {
  it.each([
    ['the README names', {}, { SDS_URL: 'http://sds.test:3000/', SDS_KEY: 'svc_api_readme' }, { baseUrl: 'http://sds.test:3000', teamKey: 'svc_api_readme' }],
    ['the first names', {}, { SDS_BASE_URL: 'http://a', SDS_TEAM_KEY: 'svc_api_a' }, { baseUrl: 'http://a', teamKey: 'svc_api_a' }],
    ['the first names win over the README names', {}, { SDS_BASE_URL: 'http://a', SDS_URL: 'http://b', SDS_TEAM_KEY: 'k1', SDS_KEY: 'k2' }, { baseUrl: 'http://a', teamKey: 'k1' }],
    ['flags win over the environment', { baseUrl: 'http://flag//', teamKey: 'flag' }, { SDS_URL: 'http://b', SDS_KEY: 'k2' }, { baseUrl: 'http://flag', teamKey: 'flag' }],
    ['the default address', {}, { SDS_KEY: 'k' }, { baseUrl: 'http://localhost:3000', teamKey: 'k' }],
  ] as const)('%s', (_name, options, env, want) => {
    expect(resolveServer(options, env)).toEqual(want);
  });

  it('says where to give a missing key', () => {
    expect(() => resolveServer({}, {})).toThrow('a team API key (svc_api_…) is required: --team-key <key>, or export SDS_KEY');
  });
});
