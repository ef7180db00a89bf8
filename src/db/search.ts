// Case-insensitive "contains" search for console lists: the text with LIKE's wildcards escaped.

/** `%text%` with `\`, `%` and `_` escaped, for ILIKE (whose default escape is the backslash). */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
