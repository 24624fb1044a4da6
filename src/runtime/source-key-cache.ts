// Source-key checks of the runtime API without a control-plane query per request: credentials (the
// key's hash and source, never the secret) are cached by the key's public lookup part, and the hash of
// every presented key is still compared in constant time. A revocation anywhere drops the source's
// entries in every process at once (ChangeFeed); while the feed is down nothing is cached, so a
// revocation can never be missed.
import type { ChangeSubscriber } from '../store/change-feed.ts';
import type { SourceKeyCredential, SourceKeyStore } from '../store/source-keys.ts';
import { fromKey, hashesMatch, SOURCE_KEY_PREFIX } from '../security/api-keys.ts';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class SourceKeyCache implements ChangeSubscriber {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly keys: Pick<SourceKeyStore, 'credential'>,
    /** Whether other processes' revocations reach this one (ChangeFeed.live). */
    private readonly live: () => boolean,
  ) {}

  /** The key's id and source, or undefined when it is unknown, malformed or revoked. */
  async authenticate(key: string): Promise<{ keyId: string; sourceId: string } | undefined> {
    const presented = fromKey(key, SOURCE_KEY_PREFIX);
    if (!presented) return undefined;
    const credential = await this.credential(presented.lookup);
    return credential && !credential.revoked && hashesMatch(credential.hash, presented.hash) ? { keyId: credential.keyId, sourceId: credential.sourceId } : undefined;
  }

  changed(sourceId: string): void {
    for (const [lookup, entry] of this.entries) {
      // Lookups still in flight may have read the row before the change: not kept either.
      if (!entry.settled || entry.sourceId === sourceId) this.entries.delete(lookup);
    }
  }

  reset(): void {
    this.entries.clear();
  }

  private credential(lookup: string): Promise<SourceKeyCredential | undefined> {
    if (!this.live()) return this.keys.credential(lookup);
    const now = Date.now();
    const cached = this.entries.get(lookup);
    if (cached && cached.expires > now) return cached.credential;
    const entry: Entry = { credential: this.keys.credential(lookup), expires: now + TTL_MS, settled: false };
    this.entries.set(lookup, entry);
    entry.credential.then(
      (found) => {
        entry.settled = true;
        entry.sourceId = found?.sourceId;
        // Unknown keys are not kept: guessing must not fill the cache.
        if (!found) this.drop(lookup, entry);
      },
      () => this.drop(lookup, entry),
    );
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.credential;
  }

  private drop(lookup: string, entry: Entry): void {
    if (this.entries.get(lookup) === entry) this.entries.delete(lookup);
  }
}

interface Entry {
  credential: Promise<SourceKeyCredential | undefined>;
  expires: number;
  settled: boolean;
  sourceId?: string;
}
