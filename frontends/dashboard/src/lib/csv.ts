// CSV for the analytics tables (RFC 4180: CRLF, fields quoted when they hold a comma, quote or line
// break). Text a spreadsheet would run as a formula (a store's or a track's name starting with =, +, -,
// @) is prefixed with an apostrophe; numbers and amounts are written exactly as the API sent them.

export type CsvCell = { text: string } | string | number;

const FORMULA_START = /^[=+\-@\t\r]/;

function field(cell: CsvCell): string {
  const value =
    typeof cell === 'object' ? (FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text) : String(cell);
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The file's text, with a byte-order mark so spreadsheet programs read the names as UTF-8. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header.map((h) => field({ text: h })), ...rows.map((row) => row.map(field))];
  return `\uFEFF${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;
}

/** A file name from words: "omni-earnings-by-store-2026-01-2026-10.csv". */
export function csvFileName(...parts: (string | undefined)[]): string {
  const slug = parts
    .filter((p): p is string => !!p)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}.csv`;
}
