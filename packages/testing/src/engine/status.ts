/**
 * The statuses the fake answers with of its own accord, by name: refusals of malformed input,
 * authentication, unknown ids and routes, the opt-in rate limit, a journal that cannot save, a bug
 * (docs/contract.md §5, §7, §10.2). Injected faults answer with any status.
 */
export const Status = {
  created: 201,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  preconditionFailed: 412,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  tooManyRequests: 429,
  internalError: 500,
  notImplemented: 501,
  serviceUnavailable: 503
} as const
