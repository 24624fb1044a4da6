// TableWriter and FileSink: text rows become UTF-8 chunks whose buffers are reused once written,
// so a file several chunks long must hold exactly the text given, plain or gzip-compressed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../../src/files/byte-chunks.ts';
import { FileSink } from '../../../src/files/file-sink.ts';
import type { TableEncoder } from '../../../src/files/table-encoders.ts';
import { TableWriter } from '../../../src/files/table-writer.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-table-writer-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Row i's text: ASCII, two-byte, three-byte and four-byte characters, lengths varying. */
const rowText = (index: number) => `${index},${'é'.repeat(index % 7)}${'€'.repeat(index % 5)}${index % 11 === 0 ? '😀' : ''},${'x'.repeat(index % 97)}\r\n`;
const encoder: TableEncoder = { head: () => 'id,text\r\n', row: (values) => rowText(values[0] as number), tail: (rows) => `-- ${rows} rows\r\n` };

describe('TableWriter', () => {
  it.each([false, true])('gzip %s: rows from a generator, ranges encoded ahead and a row longer than a chunk come out as given', async (gzip) => {
    const file = path.join(folder, `table-${gzip}.csv`);
    const sink = await FileSink.open(file, gzip);
    const writer = new TableWriter(sink, encoder);
    const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, offset) => [from + offset]);
    let expected = encoder.head() as string;
    await writer.begin();
    // About 4 MB in rows, then ranges made ahead (as this thread's while workers make others), then a huge row.
    await writer.write(rows(0, 40_000));
    const ahead = writer.encodeRange(rows(40_000, 70_000), 40_000);
    await writer.writeEncoded(ahead.chunks, ahead.rows);
    await writer.write(rows(70_000, 80_000));
    for (let index = 0; index < 80_000; index++) expected += rowText(index);
    const huge = { head: () => '', row: () => `${'ü'.repeat(CHUNK_BYTES)}\r\n`, tail: () => '' } satisfies TableEncoder;
    const hugeWriter = new TableWriter(sink, huge);
    await writer.finish();
    expected += encoder.tail(80_000) as string;
    await hugeWriter.write([[0]]);
    await hugeWriter.finish();
    expected += `${'ü'.repeat(CHUNK_BYTES)}\r\n`;
    expect(sink.bytesIn).toBe(Buffer.byteLength(expected));
    expect(ahead.chunks.length).toBeGreaterThan(1);
    await sink.close();
    const bytes = fs.readFileSync(file);
    expect((gzip ? zlib.gunzipSync(bytes) : bytes).toString('utf8') === expected).toBe(true);
  });
});
