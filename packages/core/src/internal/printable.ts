/** Characters never shown as they are: controls, format characters (bidi), separators, lone surrogates. */
export const unprintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u

/** `char` as a `\uXXXX` (or `\u{XXXXX}`) escape. */
export const escapeChar = (char: string): string => {
  const code = char.codePointAt(0)!
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`
}
