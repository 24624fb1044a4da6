// What each walkthrough is given and answers; the test (../clients.test.ts) checks the answers.
export interface Given {
  /** Where the test service answers, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  teamKey: string;
  /** A schema config (blogConfig) to create the walkthrough's own source from. */
  config: unknown;
  /** A generated source of that schema, for the clients of its own document. */
  sourceId: string;
  sourceKey: string;
}

export interface Answers {
  sourceId: string;
  /** Posts of authors 1 to 3, sorted by id, their author populated. */
  posts: { id: unknown; authorId: unknown; title: unknown }[];
  /** The first of them after a PATCH of its title. */
  patched: { id: unknown; title: unknown };
  /** users.csv, fields id and email, sorted by id. */
  csv: string;
}

/** Waits for a condition the API reports, checking every 100 ms for up to a minute. */
export async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await check()); ) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
