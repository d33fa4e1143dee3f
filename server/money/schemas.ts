// The money API's shapes: an entry as written and shown, the entries' page, the accounts with their balances, and dues.
import { CloneType } from '@sinclair/typebox'
import { NextCursor, PageQuery } from '../http/paging.ts'
import { DateString, Id, Instant, Line, Lines, Nullable, OneOf, t } from '../schemas.ts'
import { UNIT_SLUGS } from '../units/tables.ts'
import { ENTRY_KINDS, PAY_METHODS } from './tables.ts'

/** Cents, as every amount is: an integer above zero, at most $1,000,000.00. */
const Cents = t.Integer({ minimum: 1, maximum: 100_000_000, description: 'An amount in cents, above zero', examples: [4500] })
const Memo = Line(200, { minLength: 1, description: 'What it is for, as the family will read it', examples: ['Winter campout'] })
const Unit = OneOf(UNIT_SLUGS)

const Common = {
  kind: OneOf(ENTRY_KINDS, { description: 'charge and refund add to what is owed; payment and credit take from it' }),
  amount_cents: Cents,
  date: DateString,
  memo: Memo,
  event_uid: t.Optional(Line(255, { minLength: 1, description: 'The calendar event it belongs to' })),
  method: t.Optional(OneOf(PAY_METHODS, { description: 'How a payment or refund was made' })),
  reference: t.Optional(Line(200, { minLength: 1, description: 'A check number, a receipt or an online payment id' })),
}

export const NewEntry = t.Union(
  [
    t.Object({ scout_id: Id, ...Common }, { additionalProperties: false }),
    t.Object({ household_id: Id, ...Common }, { additionalProperties: false }),
  ],
  {
    description: "A scout's entry (`scout_id`) or a family-level one (`household_id`), never both",
    examples: [{ scout_id: 12, kind: 'payment', amount_cents: 4500, date: '2026-11-20', memo: 'Dues', method: 'check', reference: '1043' }],
  },
)

const ENTRY_EXAMPLE = {
  id: 88,
  household_id: 7,
  scout_id: 12,
  kind: 'payment',
  amount_cents: 4500,
  date: '2026-11-20',
  memo: 'Dues',
  event_uid: null,
  method: 'check',
  reference: '1043',
  reverses_id: null,
  reversed_by_id: null,
  created_by: 'akela@example.org',
  created_at: '2026-11-20T19:02:11.000Z',
}

export const EntryView = t.Object(
  {
    id: t.Integer(),
    household_id: t.Integer(),
    scout_id: Nullable(t.Integer()),
    kind: OneOf(ENTRY_KINDS),
    amount_cents: t.Integer({ minimum: 1 }),
    date: t.String({ format: 'date' }),
    memo: t.String(),
    event_uid: Nullable(t.String()),
    method: Nullable(OneOf(PAY_METHODS)),
    reference: Nullable(t.String()),
    reverses_id: Nullable(t.Integer({ description: 'The entry this one undoes: its effect on the balance is the other way' })),
    reversed_by_id: Nullable(t.Integer({ description: 'The entry that undid this one' })),
    created_by: t.String({ description: 'Who wrote it' }),
    created_at: Instant,
  },
  { $id: 'MoneyEntry', additionalProperties: false, examples: [ENTRY_EXAMPLE] },
)

export const EntryAnswer = t.Object({ entry: EntryView }, { additionalProperties: false, examples: [{ entry: ENTRY_EXAMPLE }] })

export const ReverseBody = t.Object({ memo: t.Optional(Memo) }, { additionalProperties: false, examples: [{ memo: 'Entered twice' }] })

export const EntryQuery = t.Object(
  {
    scout_id: t.Optional(t.Integer({ minimum: 1, description: "One scout's entries" })),
    household_id: t.Optional(t.Integer({ minimum: 1, description: "One household's entries, its scouts' included" })),
    event_uid: t.Optional(Line(255, { minLength: 1, description: "One event's entries" })),
    unit: t.Optional(OneOf(UNIT_SLUGS, { description: 'The families of one unit (else every unit the caller leads)' })),
    ...PageQuery,
  },
  { additionalProperties: false },
)

export const EntryPage = t.Object(
  { entries: t.Array(EntryView), next_cursor: NextCursor },
  { additionalProperties: false, examples: [{ entries: [ENTRY_EXAMPLE], next_cursor: null }] },
)

export const AccountQuery = t.Object(
  { unit: t.Optional(OneOf(UNIT_SLUGS, { description: 'The families of one unit (else every unit the caller leads)' })) },
  { additionalProperties: false },
)

const ACCOUNT_EXAMPLES = [
  { household_id: 7, payment_reference: '3FA9C21B', name: 'Robin Hale', unit: 'pack', balance_cents: 4500 },
  { scout_id: 12, household_id: 7, payment_reference: '3FA9C21B', name: 'Jamie Hale', unit: 'pack', balance_cents: 0 },
]

export const AccountView = t.Object(
  {
    scout_id: t.Optional(t.Integer({ description: "A scout's own account; left out on the household's" })),
    household_id: t.Integer(),
    payment_reference: t.String({ description: 'The code online payments carry to name this household' }),
    name: t.String(),
    unit: Unit,
    balance_cents: t.Integer({ description: "Positive: owed to the unit. A household's balance includes its scouts' entries" }),
  },
  { additionalProperties: false },
)

export const AccountList = t.Object(
  {
    accounts: t.Array(AccountView),
    totals: t.Object(
      {
        owed_cents: t.Integer({ minimum: 0, description: 'What households owe, added up' }),
        credit_cents: t.Integer({ minimum: 0, description: 'What households have in credit, added up' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, examples: [{ accounts: ACCOUNT_EXAMPLES, totals: { owed_cents: 4500, credit_cents: 0 } }] },
)

export const DuesBody = t.Object(
  {
    unit: Unit,
    program_year: t.Integer({ minimum: 2000, maximum: 2200, description: 'The program year, by the calendar year it starts in' }),
    amount_cents: Cents,
    due_on: DateString,
  },
  { additionalProperties: false, examples: [{ unit: 'pack', program_year: 2026, amount_cents: 7500, due_on: '2026-12-31' }] },
)

const ScoutName = t.Object({ scout_id: t.Integer(), name: t.String() }, { additionalProperties: false })

export const DuesAnswer = t.Object(
  {
    program_year: t.Integer(),
    amount_cents: t.Integer(),
    charged: t.Array(ScoutName, { description: 'Scouts charged now' }),
    already_charged: t.Array(ScoutName, { description: 'Scouts charged for this year before (not charged again)' }),
  },
  {
    additionalProperties: false,
    examples: [{ program_year: 2026, amount_cents: 7500, charged: [{ scout_id: 12, name: 'Jamie Hale' }], already_charged: [] }],
  },
)

export const WebhookAnswer = t.Object(
  {
    received: t.Boolean(),
    recorded: t.Boolean({ description: 'A payment was recorded by this delivery (false for a retry or another kind of event)' }),
  },
  { additionalProperties: false, examples: [{ received: true, recorded: true }] },
)

const UNMATCHED_EXAMPLE = {
  id: 3,
  received_at: '2026-11-24T21:40:02.000Z',
  amount_cents: 4500,
  currency: 'usd',
  reference: 'HALE',
  session_id: 'cs_test_a1b2c3',
  payer_email: 'robin.hale@example.org',
}

export const UnmatchedList = t.Object(
  {
    payments: t.Array(
      t.Object(
        {
          id: t.Integer(),
          received_at: Instant,
          amount_cents: t.Integer(),
          currency: t.String(),
          reference: Nullable(t.String({ description: 'The reference the payment carried, which names no household' })),
          session_id: t.String({ description: "Stripe's checkout session id" }),
          payer_email: Nullable(t.String({ description: 'The address the payer gave Stripe' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ payments: [UNMATCHED_EXAMPLE] }] },
)

export const AssignBody = t.Object({ household_id: Id }, { additionalProperties: false, examples: [{ household_id: 7 }] })

export const ReportQuery = t.Object(
  {
    unit: t.Optional(OneOf(UNIT_SLUGS, { description: 'One unit (else every unit the caller leads)' })),
    from: t.Optional(CloneType(DateString, { description: 'The first day of the period (the start of this program year by default)' })),
    to: t.Optional(CloneType(DateString, { description: 'The last day of the period (today by default)' })),
  },
  { additionalProperties: false },
)

const KindTotals = t.Object(
  { charge: t.Integer(), payment: t.Integer(), credit: t.Integer(), refund: t.Integer() },
  { additionalProperties: false, description: 'Cents of each kind in the period, reversals taken off' },
)

const REPORT_EXAMPLE = {
  unit: 'pack',
  from: '2026-09-01',
  to: '2026-11-30',
  by_kind: { charge: 157500, payment: 120000, credit: 8000, refund: 0 },
  by_event: [{ event_uid: 'fall-campout@pack123', title: 'Fall campout', charge_cents: 45000, payment_cents: 40000 }],
  by_method: [{ method: 'check', payment_cents: 80000, refund_cents: 0 }],
  accounts: [{ household_id: 7, payment_reference: '3FA9C21B', name: 'Robin Hale', opening_cents: 0, closing_cents: 4500 }],
  totals: { opening_cents: 0, closing_cents: 29500 },
}

export const MoneyReport = t.Object(
  {
    unit: Nullable(Unit),
    from: t.String({ format: 'date' }),
    to: t.String({ format: 'date' }),
    by_kind: KindTotals,
    by_event: t.Array(
      t.Object(
        { event_uid: t.String(), title: Nullable(t.String()), charge_cents: t.Integer(), payment_cents: t.Integer() },
        { additionalProperties: false },
      ),
    ),
    by_method: t.Array(
      t.Object(
        { method: t.Union([OneOf(PAY_METHODS), t.Null()]), payment_cents: t.Integer(), refund_cents: t.Integer() },
        { additionalProperties: false },
      ),
    ),
    accounts: t.Array(
      t.Object(
        {
          scout_id: t.Optional(t.Integer()),
          household_id: t.Integer(),
          payment_reference: t.String(),
          name: t.String(),
          opening_cents: t.Integer({ description: 'The balance before `from`' }),
          closing_cents: t.Integer({ description: 'The balance at the end of `to`' }),
        },
        { additionalProperties: false },
      ),
    ),
    totals: t.Object(
      { opening_cents: t.Integer(), closing_cents: t.Integer() },
      { additionalProperties: false, description: "The households' balances added up" },
    ),
  },
  { additionalProperties: false, examples: [REPORT_EXAMPLE] },
)

/** Up to 1 MB of CSV: a unit's fundraiser sheet is a few kilobytes. */
export const CREDITS_MAX_BYTES = 1024 * 1024

export const CreditsRequest = t.Object(
  {
    csv: Lines(CREDITS_MAX_BYTES, {
      minLength: 1,
      description: 'The CSV file as text (UTF-8): the scout (Member ID, or name), Amount and Memo',
    }),
    unit: t.Optional(OneOf(UNIT_SLUGS, { description: 'The unit whose scouts the file names (else every unit the caller leads)' })),
  },
  {
    additionalProperties: false,
    examples: [{ csv: 'Scout,Amount,Memo\r\nJamie Hale,42.50,Popcorn 2026\r\n', unit: 'pack' }],
  },
)

export const CreditsParams = t.Object({ id: t.String({ pattern: '^[A-Za-z0-9_-]{10,40}$', description: 'The preview id' }) })

const Credit = t.Object(
  {
    line: t.Integer({ minimum: 1, description: 'Line in the file' }),
    scout_id: t.Integer(),
    name: t.String(),
    amount_cents: t.Integer({ minimum: 1 }),
    memo: t.String(),
  },
  { additionalProperties: false },
)

export const CreditsPreview = t.Object(
  {
    id: t.String({ description: 'Apply it with this id within the hour' }),
    expires_at: Instant,
    credits: t.Array(Credit, { description: 'What applying credits' }),
    bad_rows: t.Array(t.Object({ line: t.Integer(), reason: t.String() }, { additionalProperties: false }), {
      description: 'Lines that are not credited, and why (including credits the ledger already holds)',
    }),
    total_cents: t.Integer(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 'q3VfX0c1sYk2rKzY8pQ1aw',
        expires_at: '2026-11-28T10:30:00.000Z',
        credits: [{ line: 2, scout_id: 12, name: 'Jamie Hale', amount_cents: 4250, memo: 'Popcorn 2026' }],
        bad_rows: [{ line: 3, reason: 'Sam Doe: no such scout in your units' }],
        total_cents: 4250,
      },
    ],
  },
)

export const CreditsApplied = t.Object(
  {
    created: t.Integer({ description: 'Credit entries written' }),
    skipped: t.Integer({ description: 'Lines not credited' }),
    total_cents: t.Integer(),
  },
  { additionalProperties: false, examples: [{ created: 23, skipped: 1, total_cents: 97500 }] },
)

const StatementLineView = t.Object(
  {
    id: t.Integer(),
    date: t.String({ format: 'date' }),
    kind: OneOf(ENTRY_KINDS),
    memo: t.String(),
    cents: t.Integer({ description: 'The effect on what is owed: positive adds to it' }),
  },
  { additionalProperties: false },
)
const StatementAccount = {
  carried_cents: t.Integer({ description: 'The balance carried over from before `since`' }),
  lines: t.Array(StatementLineView),
  balance_cents: t.Integer({ description: 'Positive: owed to the unit' }),
}

const STATEMENT_EXAMPLE = {
  household_id: 7,
  parent_name: 'Robin Hale',
  payment_reference: '3FA9C21B',
  since: '2026-09-01',
  scouts: [
    {
      scout_id: 12,
      name: 'Jamie Hale',
      carried_cents: 0,
      lines: [{ id: 88, date: '2026-11-20', kind: 'charge', memo: 'Winter campout', cents: 4500 }],
      balance_cents: 4500,
    },
  ],
  family: { carried_cents: 0, lines: [], balance_cents: 0 },
  owed_cents: 4500,
  pay: [{ provider: 'stripe', label: 'Pay by card', url: 'https://buy.stripe.com/test_abc?client_reference_id=3FA9C21B' }],
  instructions: '<p>Checks to <strong>Pack 123</strong></p>',
}

export const StatementView = t.Object(
  {
    household_id: t.Integer(),
    parent_name: t.String(),
    payment_reference: t.String({ description: 'Give it with a payment made another way, so it lands on this account' }),
    since: t.String({ format: 'date', description: 'Entries from this day (the start of the program year) are listed' }),
    scouts: t.Array(t.Object({ scout_id: t.Integer(), name: t.String(), ...StatementAccount }, { additionalProperties: false })),
    family: t.Object(StatementAccount, { additionalProperties: false, description: "The household's own entries, not a scout's" }),
    owed_cents: t.Integer({ description: 'Everything the household owes (negative: in credit)' }),
    pay: t.Array(
      t.Object(
        { provider: OneOf(['paypal', 'venmo', 'stripe'] as const), label: t.String(), url: t.String() },
        { additionalProperties: false },
      ),
      {
        description:
          'A Pay link for each way the unit takes, with the amount filled in where the provider takes it; none when nothing is owed',
      },
    ),
    instructions: Nullable(
      t.String({ description: 'How else to pay (the payments.instructions setting, as sanitised HTML), when something is owed' }),
    ),
  },
  { additionalProperties: false },
)

export const FamilyMoney = t.Object(
  { statements: t.Array(StatementView, { description: 'One per household of yours that has money entries' }) },
  { additionalProperties: false, examples: [{ statements: [STATEMENT_EXAMPLE] }] },
)
