// Waiting in tests for something another process or a background task does: polls a probe until it
// gives a value, or fails naming what it waited for.

/**
 * Calls `probe` every `everyMs` until it returns something other than undefined or false, and
 * resolves to that; throws after `timeoutMs`, saying what it was waiting for.
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
