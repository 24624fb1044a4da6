// AppError and the catalogue of error texts. Expected failures are thrown as AppError and written
// by the HTTP error middleware as {"error", "details"?}; anything else becomes a 500 without a stack.

export interface ErrorDetail {
  /** JSON pointer (into a config) or request location (`/body/name`, `/query/limit`). */
  path: string;
  message: string;
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
  invalidApiKey: () => new AppError(401, 'Invalid API key'),
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
  conflict: (message: string) => new AppError(409, message),
  malformedJson: (reason: string) => new AppError(400, `Malformed JSON body: ${reason}`),
  payloadTooLarge: (limit: string) => new AppError(413, `Request body too large (limit ${limit})`),
  unsupportedMediaType: (type: string) => new AppError(415, `Unsupported content type ${type || '(none)'}: send application/json`),
  notImplemented: () => new AppError(501, 'Not implemented'),
  unavailable: (what: string) => new AppError(503, `${what} is unavailable; try again shortly`),
  shuttingDown: () => new AppError(503, 'The service is shutting down'),
  secretUnreadable: () =>
    new AppError(503, "This source's connection string cannot be decrypted: this server's SDS_SECRET_KEY is not the one it was stored with"),
  targetRefused: (reason: string) => new AppError(503, `This source's connection string can no longer be used: ${reason}`),
  internal: () => new AppError(500, 'Internal server error'),
};
