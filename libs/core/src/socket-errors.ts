import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_STATUS, type ErrorCode } from './errors.js';

/**
 * Errors of the HTTP parser, before Fastify saw a request (headers too large, a malformed request
 * line, a request too slow to arrive): the envelope is written to the socket, which then closes.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  // As Node's own handler: no answer while one is half written on this (kept-alive) socket.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'The request took too long to arrive']
        : ['BAD_REQUEST', 'Malformed HTTP request'];
  const body = JSON.stringify({ success: false, error: { code, message } });
  const status = ERROR_STATUS[code];
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
