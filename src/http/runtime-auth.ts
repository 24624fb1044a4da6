// Runtime access: the source of the path, its source key (x-api-key) unless it has requireAuth: false,
// then its rate limit. Texts are the specification's: "API key required", "Invalid API key"; a valid
// key of another source is 403.
import type { NextFunction, Request, Response } from 'express';
import { errors } from '../errors.ts';
import type { KeyUsageRecorder } from '../management/key-usage.ts';
import type { RuntimeSources } from '../runtime/runtime-sources.ts';
import type { SourceKeyCache } from '../runtime/source-key-cache.ts';
import { API_KEY_HEADER, clientAddress, wrongKindHint } from './auth.ts';
import type { AuthFailureLimiter, SharedRateLimiter } from './rate-limit.ts';

export function sourceKeyAuth(deps: {
  sources: RuntimeSources;
  keys: Pick<SourceKeyCache, 'authenticate'>;
  usage: KeyUsageRecorder;
  limiter: SharedRateLimiter;
  failures: AuthFailureLimiter;
}) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const sourceId = String(req.params.sourceId);
    const key = req.get(API_KEY_HEADER);
    const runtime = UUID.test(sourceId) ? await deps.sources.get(sourceId) : undefined;
    if (!key) {
      if (!runtime || runtime.source.requireAuth) throw errors.apiKeyRequired();
    } else {
      // Checked before anything is refused: a valid key is served whatever its address did.
      const presented = await deps.keys.authenticate(key);
      if (!presented) {
        await deps.failures.fail(clientAddress(req));
        throw errors.invalidApiKey(wrongKindHint(key, 'runtime'));
      }
      if (presented.sourceId !== sourceId) throw errors.outOfScope('this source');
      if (!runtime) throw errors.notFound('Source');
      deps.usage.record(presented.keyId);
    }
    await deps.limiter.consume(runtime!.source.id, runtime!.source.rateLimitRpm, res);
    res.locals.runtime = runtime;
    next();
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
