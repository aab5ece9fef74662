/**
 * The path of the API's version under a server's root (§9): `Endpoint.basePath`, and what a
 * 404's message checks a base URL for (`ApiError`).
 */
export const basePath = "/api/v2"
