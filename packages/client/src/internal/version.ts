/** This package's version, sent in `User-Agent`; kept equal to `package.json` by a test. */
export const version = "0.0.0"
