// CSV downloads: a plain header, every cell quoted, and a leading = + - @ (also after blanks) or tab or
// carriage return defused with a ', so spreadsheets never run a cell as a formula.
type Cell = string | number | boolean | null | undefined

export function csvCell(value: Cell): string {
  const text = value === null || value === undefined ? '' : String(value)
  return `"${(/^\s*[=+\-@]|^[\t\r]/.test(text) ? "'" + text : text).replaceAll('"', '""')}"`
}

export const csvDocument = (header: string[], rows: Cell[][]) =>
  [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n') + '\r\n'
