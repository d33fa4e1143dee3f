// Roster import schemas: the file as a request sends it, and the preview and result as answers show them.
import { UNIT_SLUGS } from '../units/tables.ts'
import { Instant, Lines, Nullable, OneOf, t } from '../schemas.ts'

/** Up to 4 MB of CSV text: a unit's roster is tens of kilobytes; the body limit answers 413 beyond it. */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024

export const ImportRequest = t.Object(
  {
    csv: Lines(IMPORT_MAX_BYTES, { minLength: 1, description: 'The CSV file as text (UTF-8)' }),
    unit: t.Optional(OneOf(UNIT_SLUGS, { description: 'The unit of rows that name none (else the unit the file title names)' })),
  },
  {
    additionalProperties: false,
    examples: [
      { csv: 'First Name,Last Name,Den,Parent Name,Parent Email\r\nJamie,Hale,Wolf,Robin Hale,robin@example.org\r\n', unit: 'pack' },
    ],
  },
)

export const ImportParams = t.Object({ id: t.String({ pattern: '^[A-Za-z0-9_-]{10,40}$', description: 'The preview id' }) })

const Action = OneOf(['create', 'update', 'unchanged'] as const, { description: 'What applying does to it' })
const Line = t.Integer({ minimum: 1, description: 'Line in the file' })

const PreviewHousehold = t.Object({
  action: Action,
  id: Nullable(t.Integer()),
  parent_name: t.String(),
  email: Nullable(t.String()),
  phone: Nullable(t.String()),
  second_parent: Nullable(t.String()),
  second_email: Nullable(t.String()),
  changes: t.Array(t.String(), { description: 'The fields an update changes' }),
  lines: t.Array(Line),
})

const PreviewScout = t.Object({
  line: Line,
  action: Action,
  id: Nullable(t.Integer()),
  first_name: t.String(),
  last_name: Nullable(t.String()),
  unit: t.String(),
  unit_id: t.Integer(),
  den: Nullable(t.String()),
  org_member_id: Nullable(t.String()),
  household: t.Integer({ description: 'Index of its household in `households`' }),
  changes: t.Array(t.String()),
})

const ImportPlan = {
  households: t.Array(PreviewHousehold),
  scouts: t.Array(PreviewScout),
  bad_rows: t.Array(t.Object({ line: Line, reason: t.String() }), { description: 'Rows that are not imported, and why' }),
  new_dens: t.Array(t.Object({ unit: t.String(), den: t.String() }), { description: 'Dens and patrols the unit has not used before' }),
  warnings: t.Array(t.Object({ line: Nullable(Line), message: t.String() }), { description: 'Columns not kept, parents left out' }),
}

export const ImportPreview = t.Object({ id: t.String(), expires_at: Instant, ...ImportPlan })

const Counts = t.Object({ households: t.Integer(), scouts: t.Integer() })
export const ImportResult = t.Object({
  created: Counts,
  updated: Counts,
  skipped: t.Integer({ description: 'Bad rows, not written' }),
})
