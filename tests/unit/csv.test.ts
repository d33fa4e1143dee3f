// CSV cells a spreadsheet would run as a formula are defused: a leading = + - @, also after blanks, and a
// leading tab or carriage return.
import { describe, expect, it } from 'bun:test'
import { csvCell, csvDocument } from '../../server/csv.ts'

describe('csvCell', () => {
  it('prefixes a quote to a formula, also after spaces, tabs and line breaks', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '  =HYPERLINK("x")', '\t+SUM(A1)', '\n@cmd', '\r\n-2', '\t', '\rx'])
      expect(csvCell(text)).toBe(`"'${text.replaceAll('"', '""')}"`)
  })

  it('leaves other text as it is, quoted, with quotes doubled', () => {
    expect(csvCell('Robin "Bobbie" Hale')).toBe('"Robin ""Bobbie"" Hale"')
    expect(csvCell('a=b')).toBe('"a=b"')
    expect(csvCell(null)).toBe('""')
    expect(csvCell(42)).toBe('"42"')
    expect(csvCell(-5.5)).toBe('"-5.5"') // a number is never a formula, so an amount stays a number
    expect(csvDocument(['a', 'b'], [[1, 'x']])).toBe('a,b\r\n"1","x"\r\n')
  })
})
