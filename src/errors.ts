// AppError and the catalogue of error texts. Expected failures are thrown as AppError and written
// by the HTTP error middleware as {"error", "details"?}; anything else becomes a 500 without a stack.

export interface ErrorDetail {
  /** JSON pointer (into a config) or request location (`/body/name`, `/query/limit`). */
  path: string;
  message: string;
}

/** A user-supplied text as a quoted, escaped literal for a message, cut short when long. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

export class AppError extends Error {
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const errors = {
  apiKeyRequired: () => new AppError(401, 'API key required'),
  /** The specification's text; `hint` (a key of the other kind, say) goes in `details`, at the header. */
  invalidApiKey: (hint?: string) => new AppError(401, 'Invalid API key', hint ? { details: [{ path: '/header/x-api-key', message: hint }] } : {}),
  adminTokenRequired: () => new AppError(401, 'Admin token required', { headers: { 'WWW-Authenticate': 'Bearer' } }),
  invalidAdminToken: () => new AppError(401, 'Invalid admin token', { headers: { 'WWW-Authenticate': 'Bearer' } }),
  adminDisabled: () => new AppError(401, 'Admin API disabled: set SDS_ADMIN_TOKEN to enable it'),
  metricsTokenRequired: () => new AppError(401, 'Metrics token required', { headers: { 'WWW-Authenticate': 'Bearer' } }),
  invalidMetricsToken: () => new AppError(401, 'Invalid metrics token', { headers: { 'WWW-Authenticate': 'Bearer' } }),
  metricsDisabled: () => new AppError(401, 'Metrics disabled: set SDS_METRICS_TOKEN to enable them'),
  outOfScope: (what: string) => new AppError(403, `This API key is not allowed to access ${what}`),
  scopedKeyCannotCreateProjects: () => new AppError(403, 'Project-scoped API keys cannot create projects'),
  notFound: (what: string) => new AppError(404, `${what} not found`),
  routeNotFound: (method: string, path: string) => new AppError(404, `Route ${method} ${path} not found`),
  methodNotAllowed: (method: string, path: string) => new AppError(405, `Method ${method} not allowed on ${path}`),
  badRequest: (message: string, details?: ErrorDetail[]) => new AppError(400, message, details ? { details } : {}),
  /** Worded like the request validator's errors: the contract declares the header a string, so the handler checks it. */
  invalidLastEventId: () =>
    new AppError(400, 'Invalid request: headers.last-event-id must be a non-negative integer (the id of the last event received)', {
      details: [{ path: '/headers/last-event-id', message: 'must be a non-negative integer (the id of the last event received)' }],
    }),
  conflict: (message: string) => new AppError(409, message),
  malformedJson: (reason: string) => new AppError(400, `Malformed JSON body: ${reason}`),
  payloadTooLarge: (limit: string) => new AppError(413, `Request body too large (limit ${limit})`),
  unsupportedMediaType: (type: string) => new AppError(415, `Unsupported content type ${type || '(none)'}: send application/json`),
  notImplemented: () => new AppError(501, 'Not implemented'),
  workTooLong: (what: string, ms: number) =>
    new AppError(422, `${what} took longer than ${ms / 1000} s, the limit of one request; make it smaller (fewer entities, rows or faker argument sizes)`),
  workTooLarge: (what: string, mb: number) => new AppError(422, `${what} needed more than ${mb} MB of memory, the limit of one request; make it smaller`),
  previewFailed: (reason: string) => new AppError(422, `The preview failed while generating rows: ${reason}`),
  teamWorkBusy: (allowed: number, retryAfter: number) =>
    new AppError(429, `This team already has ${allowed} schema-config validations or previews running or waiting, its limit; retry when one has finished`, {
      headers: { 'Retry-After': String(retryAfter) },
    }),
  workBusy: (retryAfter: number) =>
    new AppError(503, 'Schema-config validation and previews are busy; retry shortly', { headers: { 'Retry-After': String(retryAfter) } }),
  unavailable: (what: string) => new AppError(503, `${what} is unavailable; try again shortly`),
  shuttingDown: () => new AppError(503, 'The service is shutting down'),
  secretUnreadable: () =>
    new AppError(503, "This source's connection string cannot be decrypted: this server's SDS_SECRET_KEY is not the one it was stored with"),
  targetRefused: (reason: string) => new AppError(503, `This source's connection string can no longer be used: ${reason}`),
  internal: () => new AppError(500, 'Internal server error'),
};
