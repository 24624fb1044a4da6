// Requests Node's HTTP parser rejects before Express sees them (request line and headers over
// `maxHeaderSize`, malformed HTTP, header timeouts) get a JSON {"error"} like every other failure,
// instead of Node's bare status line.
import http from 'node:http';
import type { Duplex } from 'node:stream';

const ANSWERS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, `Request line and headers too large (limit ${http.maxHeaderSize} bytes): send a shorter URL, fewer query parameters or smaller headers`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out'],
};

/** A `clientError` listener for http.Server, answering as Node would but with a JSON body. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex & { bytesWritten?: number }): void {
  // Nothing can be answered on a reset or half-answered connection.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
    socket.destroy();
    return;
  }
  const [status, message] = ANSWERS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
