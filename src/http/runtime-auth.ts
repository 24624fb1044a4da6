// Runtime access: the source of the path, its source key (x-api-key) unless it has requireAuth: false,
// then its rate limit. Texts are the specification's: "API key required", "Invalid API key"; a valid
// key of another source is 403. Framework-free: the runtime router calls it with what it read of the
// request.
import { errors } from '../errors.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { RuntimeSource } from '../operation.ts';
import type { RuntimeSources } from '../runtime/runtime-sources.ts';
import type { SourceKeyCache } from '../runtime/source-key-cache.ts';
import { wrongKindHint } from './auth.ts';
import type { AuthFailureLimiter, SharedRateLimiter } from './rate-limit.ts';

/** What source-key auth reads of a runtime request. */
export interface SourceAccess {
  /** The path's source id, decoded. */
  sourceId: string;
  /** The x-api-key header. */
  key: string | undefined;
  /** The client's address (trust-proxy rules applied), asked only when a key is wrong. */
  clientAddress: () => string;
}

/** Lets a runtime request in: resolves to its source (RateLimit-* headers set on `res`), or throws the refusal. */
export type SourceAuth = (access: SourceAccess, res: { setHeader(name: string, value: string): unknown }) => Promise<RuntimeSource>;

export function sourceKeyAuth(deps: {
  sources: RuntimeSources;
  keys: Pick<SourceKeyCache, 'authenticate'>;
  usage: KeyUsageRecorder;
  limiter: SharedRateLimiter;
  failures: AuthFailureLimiter;
}): SourceAuth {
  return async ({ sourceId, key, clientAddress }, res) => {
    const runtime = UUID.test(sourceId) ? await deps.sources.get(sourceId) : undefined;
    if (!key) {
      if (!runtime || runtime.source.requireAuth) throw errors.apiKeyRequired();
    } else {
      // Checked before anything is refused: a valid key is served whatever its address did.
      const presented = await deps.keys.authenticate(key);
      if (!presented) {
        await deps.failures.fail(clientAddress());
        throw errors.invalidApiKey(wrongKindHint(key, 'runtime'));
      }
      if (presented.sourceId !== sourceId) throw errors.outOfScope('this source');
      if (!runtime) throw errors.notFound('Source');
      deps.usage.record(presented.keyId);
    }
    await deps.limiter.consume(runtime!.source.id, runtime!.source.rateLimitRpm, res);
    return runtime!;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
