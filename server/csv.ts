// CSV downloads: a plain header, every cell quoted, and a leading = + - @ (also after blanks) or tab or
// carriage return defused with a ', so spreadsheets never run a cell as a formula.
type Cell = string | number | boolean | null | undefined

export function csvCell(value: Cell): string {
  const text = value === null || value === undefined ? '' : String(value)
  return `"${(/^\s*[=+\-@]|^[\t\r]/.test(text) ? "'" + text : text).replaceAll('"', '""')}"`
}

/** Rows as CSV lines, each ending in CRLF (for writing a document in parts). */
export const csvRows = (rows: Cell[][]) => rows.map((r) => r.map(csvCell).join(',') + '\r\n').join('')

export const csvDocument = (header: string[], rows: Cell[][]) => header.join(',') + '\r\n' + csvRows(rows)
