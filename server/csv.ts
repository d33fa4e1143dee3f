// CSV downloads: a plain header, every cell quoted, and a leading = + - @ (also after blanks) or tab or
// carriage return defused with a ', so spreadsheets never run a cell as a formula.
import { CsvError, parse } from 'csv-parse/sync'
import { unprocessable } from './errors.ts'

type Cell = string | number | boolean | null | undefined

export function csvCell(value: Cell): string {
  const text = value === null || value === undefined ? '' : String(value)
  // A number (an amount of -5) is no formula: it stays one the spreadsheet can add up. Text is defused.
  const runnable = typeof value !== 'number' && /^\s*[=+\-@]|^[\t\r]/.test(text)
  return `"${(runnable ? "'" + text : text).replaceAll('"', '""')}"`
}

/** Rows as CSV lines, each ending in CRLF (for writing a document in parts). */
export const csvRows = (rows: Cell[][]) => rows.map((r) => r.map(csvCell).join(',') + '\r\n').join('')

export const csvDocument = (header: string[], rows: Cell[][]) => header.join(',') + '\r\n' + csvRows(rows)

/** A download's file name from what it is and the event it is about: "replies-2026-12-05-pinewood-derby.csv". */
export const eventFileName = (kind: string, date: string, title: string) =>
  `${kind}-${date}-${
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'event'
  }.csv`

/** A CSV answer the browser saves as `filename` (the body a string or a stream of lines). */
export const csvDownload = (filename: string, body: BodyInit) =>
  new Response(body, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` },
  })

/** One line of an uploaded CSV file as read: its cells, trimmed, and the line it ends on. */
export interface CsvRecord {
  record: string[]
  info: { lines: number }
}

/**
 * The lines of an uploaded CSV file (a roster, a fundraiser sheet): a byte-order mark and blank lines skipped, cells
 * trimmed, rows of any length. 422 `not_csv` naming the `csv` field when it cannot be read as CSV.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as unknown as CsvRecord[]
  } catch (error) {
    if (error instanceof CsvError) throw unprocessable(`csv: this is not a readable CSV file (${error.message})`, 'not_csv', 'csv')
    throw error
  }
}
