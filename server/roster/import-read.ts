// Reading a roster file: columns found by header (case, spaces and punctuation ignored, the usual synonyms), the
// BSA "Member Roster" export as it comes (a title naming the unit, ADULT MEMBERS then YOUTH MEMBERS, one line per
// youth and parent), and only what the roster keeps: every other column is dropped and named in a warning.
import { readCsvRecords } from '../csv.ts'
import { unprocessable } from '../errors.ts'

/** One scout's line as read, before it is checked against the roster. */
export interface ImportRow {
  line: number
  first_name: string
  last_name: string
  unit: string
  den: string
  org_member_id: string
  parent_name: string
  email: string
  phone: string
  second_parent: string
  second_email: string
}
type Field = Exclude<keyof ImportRow, 'line'> | 'youth_contact'
export interface ImportWarning {
  line: number | null
  message: string
}

/** Header (lower case, letters and digits only) → field; phones listed by preference (mobile before home). */
const SYNONYMS: [Field, string[]][] = [
  ['first_name', ['firstname', 'scoutfirstname', 'youthfirstname', 'childfirstname', 'first', 'givenname', 'scoutfirst']],
  ['last_name', ['lastname', 'scoutlastname', 'youthlastname', 'childlastname', 'last', 'surname', 'familyname', 'scoutlast']],
  ['org_member_id', ['orgmemberid', 'memberid', 'bsanumber', 'bsamemberid', 'bsaid', 'membernumber', 'bsamembernumber', 'scoutbsanumber']],
  ['unit', ['unit', 'unittype', 'program', 'unitname']],
  ['den', ['den', 'patrol', 'denorpatrol', 'denpatrol', 'patrolden', 'patrolorden', 'denname', 'patrolname', 'dentype']],
  ['parent_name', ['parent', 'parentname', 'parentguardianname', 'parentguardian', 'guardian', 'guardianname', 'parent1', 'parent1name']],
  ['email', ['email', 'parentemail', 'parent1email', 'guardianemail', 'emailaddress', 'parentemailaddress', 'primaryemail']],
  [
    'phone',
    [
      'parentphone',
      'parent1phone',
      'guardianphone',
      'parentcell',
      'parentmobile',
      'mobilephone',
      'cellphone',
      'cell',
      'phone',
      'homephone',
      'workphone',
    ],
  ],
  ['second_parent', ['secondparent', 'secondparentname', 'parent2', 'parent2name', 'otherparent', 'otherparentname']],
  ['second_email', ['secondparentemail', 'parent2email', 'otherparentemail']],
  ['youth_contact', ['scoutemail', 'youthemail', 'scoutphone', 'youthphone', 'scoutcell', 'youthcell']],
]
const FIELD_OF = new Map(SYNONYMS.flatMap(([field, names]) => names.map((n, rank) => [n, { field, rank }] as const)))
const norm = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '')
const BSA_GUARDIAN = 'parentguardianname'

interface Column {
  index: number
  field: Field
  rank: number
}

/** The columns of a header row: which field each holds; null when it names no scout's first name. */
function columnsOf(header: string[]): { columns: Column[]; dropped: string[]; youth: string[] } | null {
  const names = header.map(norm)
  // In the BSA export the youth's own address and phone come before the parent's; the parent's columns follow.
  const guardianAt = names.indexOf(BSA_GUARDIAN)
  const columns: Column[] = []
  const dropped: string[] = []
  const youth: string[] = []
  names.forEach((name, index) => {
    let found = FIELD_OF.get(name)
    if (found && guardianAt >= 0 && index < guardianAt && (found.field === 'email' || found.field === 'phone'))
      found = { field: 'youth_contact', rank: 0 }
    if (!found) {
      if (header[index].trim()) dropped.push(header[index].trim())
    } else if (found.field === 'youth_contact') youth.push(header[index].trim())
    else columns.push({ index, ...found })
  })
  if (!columns.some((c) => c.field === 'first_name')) return null
  columns.sort((a, b) => a.rank - b.rank || a.index - b.index)
  return { columns, dropped: [...new Set(dropped)], youth: [...new Set(youth)] }
}

/** A unit named in a title line: "Pack 123 Member Roster" → pack. */
const unitInTitle = (cells: string[]) => /\b(pack|troop)\b/i.exec(cells.join(' '))?.[1].toLowerCase() ?? null

const MAX_ROWS = 5000

/**
 * The scouts' rows of a CSV text, with the unit its title names (BSA export) and warnings for what is not kept.
 * 422 when it is not CSV or has no header naming a scout's first name.
 */
export function readRosterCsv(text: string): { rows: ImportRow[]; unit: string | null; warnings: ImportWarning[] } {
  if (text.includes('\0')) throw unprocessable('csv: this is not a CSV file (it holds binary data)', 'not_csv', 'csv')
  const records = readCsvRecords(text)
  let unit: string | null = null
  let inAdults = false
  let header: ReturnType<typeof columnsOf> = null
  const warnings: ImportWarning[] = []
  const rows: ImportRow[] = []
  for (const { record, info } of records) {
    const cells = record.filter((c) => c !== '')
    const marker = cells.length === 1 ? cells[0].toUpperCase() : ''
    if (marker === 'ADULT MEMBERS') {
      inAdults = true
      header = null
      continue
    }
    if (marker === 'YOUTH MEMBERS') {
      inAdults = false
      header = null
      continue
    }
    if (inAdults || !cells.length) continue
    if (!header) {
      header = columnsOf(record)
      if (!header) unit ??= unitInTitle(cells)
      else {
        if (header.dropped.length)
          warnings.push({ line: info.lines, message: `Not imported (the roster does not keep them): ${header.dropped.join(', ')}` })
        if (header.youth.length)
          warnings.push({ line: info.lines, message: `A scout's own email and phone are not imported: ${header.youth.join(', ')}` })
      }
      continue
    }
    if (rows.length >= MAX_ROWS) throw unprocessable(`csv: more than ${MAX_ROWS} scouts in one file; split it`, 'too_many_rows', 'csv')
    const row: ImportRow = {
      line: info.lines,
      first_name: '',
      last_name: '',
      unit: '',
      den: '',
      org_member_id: '',
      parent_name: '',
      email: '',
      phone: '',
      second_parent: '',
      second_email: '',
    }
    for (const c of header.columns) {
      const value = (record[c.index] ?? '').replace(/\s+/g, ' ').trim()
      if (value && c.field !== 'youth_contact' && !row[c.field]) row[c.field] = value
    }
    rows.push(row)
  }
  if (!header && !rows.length)
    throw unprocessable(
      'csv: no header row naming a scout’s first name; name the columns, e.g. First Name, Last Name, Unit, Den, Parent Name, Parent Email',
      'no_header',
      'csv',
    )
  return { rows: mergeParents(rows, warnings), unit, warnings }
}

/**
 * The BSA export gives a youth with two parents on two lines: the second line's parent becomes the second parent.
 * Lines are the same scout when they share a member id, or (without one) first name, last name and unit.
 */
function mergeParents(rows: ImportRow[], warnings: ImportWarning[]): ImportRow[] {
  const seen = new Map<string, ImportRow>()
  const out: ImportRow[] = []
  for (const row of rows) {
    const key = row.org_member_id
      ? `id ${row.org_member_id}`
      : `name ${row.first_name.toLowerCase()} ${row.last_name.toLowerCase()} ${row.unit.toLowerCase()}`
    const first = row.first_name ? seen.get(key) : undefined
    if (!first || (first.first_name.toLowerCase() !== row.first_name.toLowerCase() && row.org_member_id)) {
      if (row.first_name) seen.set(key, row)
      out.push(row)
      continue
    }
    const sameParent = (row.parent_name || row.email) && row.parent_name === first.parent_name && row.email === first.email
    if (sameParent || !row.parent_name) continue
    if (first.second_parent && first.second_parent !== row.parent_name) {
      warnings.push({ line: row.line, message: `${row.parent_name}: the roster keeps two parents per household; this one is not imported` })
      continue
    }
    first.second_parent = row.parent_name
    first.second_email ||= row.email
  }
  return out
}
