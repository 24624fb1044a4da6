// Raw-load baselines of the generation and loader benchmarks: rows pre-encoded before the clock starts.
import type { RowValues } from '../src/model/row-value.ts';

/** Pre-built text in ~1 MB chunks, so raw loads time only the transfer and the server. */
export function prebuild(rows: RowValues[], encodeRow: (row: RowValues) => string): Buffer[] {
  const chunks: Buffer[] = [];
  let text = '';
  for (const row of rows) {
    text += encodeRow(row);
    if (text.length >= 1 << 20) {
      chunks.push(Buffer.from(text));
      text = '';
    }
  }
  if (text) chunks.push(Buffer.from(text));
  return chunks;
}
