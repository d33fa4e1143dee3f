// Statements by mail: every household of a unit that owes at least an amount gets its statement — each scout's
// entries and balance, the Pay links and how else to pay — through the outbox, to the parents' addresses only.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import { record, write } from '../db/write.ts'
import { conflict, forbidden } from '../errors.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { UNIT_SLUGS } from '../units/tables.ts'
import { dollars, plural } from '../words.ts'
import { balancesOf, unitsInScope } from './queries.ts'
import { type Statement, statementOf } from './statement.ts'

export const RemindersRequest = t.Object(
  {
    unit: t.Union(
      UNIT_SLUGS.map((u) => t.Literal(u)),
      { description: 'The unit whose families are reminded' },
    ),
    min_balance_cents: t.Optional(
      t.Integer({ minimum: 1, maximum: 100_000_000, description: 'Only households owing at least this (1 cent by default)' }),
    ),
  },
  { additionalProperties: false, examples: [{ unit: 'troop', min_balance_cents: 1000 }] },
)

export const RemindersQueued = t.Object(
  {
    queued: t.Integer({ description: 'Statements queued (one per address)' }),
    households: t.Integer({ description: 'Households that owe at least the amount' }),
  },
  { additionalProperties: false, examples: [{ queued: 14, households: 9 }] },
)

const lineWords = (l: { date: string; memo: string; cents: number }) =>
  `${l.date}  ${l.memo}: ${l.cents < 0 ? `${dollars(-l.cents)} paid or credited` : dollars(l.cents)}`

/** The statement as a letter's paragraphs: an account per scout, then the family's own entries. */
function statementParagraphs(st: Statement): string[] {
  const accounts = [
    ...st.scouts.map((s) => ({ title: s.name, ...s })),
    ...(st.family.lines.length || st.family.carried_cents ? [{ title: 'Family', ...st.family }] : []),
  ]
  return accounts.map((a) =>
    [
      `${a.title}: ${a.balance_cents > 0 ? `owes ${dollars(a.balance_cents)}` : a.balance_cents < 0 ? `${dollars(-a.balance_cents)} in credit` : 'settled'}`,
      ...(a.carried_cents ? [`  Carried over from before ${st.since}: ${dollars(a.carried_cents)}`] : []),
      ...a.lines.map((l) => `  ${lineWords(l)}`),
    ].join('\n'),
  )
}

export async function remindDebtors(
  db: Db,
  caller: Caller,
  input: typeof RemindersRequest.static,
  publicBaseUrl: string,
  mail: MailSender | null,
) {
  if (!caller.capabilities.has('messages:send')) throw forbidden('Statements are mailed to families: it needs messages:send as well')
  if (!mail) throw conflict('Mail is not set up on this site (SMTP_URL)')
  const [unitId] = (await unitsInScope(db, caller, input.unit))!
  const min = input.min_balance_cents ?? 1
  const result = await write(db, async (trx) => {
    const households = await trx
      .selectFrom('households')
      .select(['id', 'email', 'second_email'])
      .where('active', '=', 1)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('scouts')
            .select('scouts.id')
            .whereRef('scouts.household_id', '=', 'households.id')
            .where('scouts.unit_id', '=', unitId),
        ),
      )
      .orderBy('id')
      .execute()
    const site = await getSetting(trx, 'site.name')
    let queued = 0
    let owing = 0
    for (const h of households) {
      if ((await balancesOf(trx, h.id)).household < min) continue
      owing++
      const addresses = [...new Set([h.email, h.second_email].filter((a): a is string => !!a?.trim()).map((a) => a.trim().toLowerCase()))]
      if (!addresses.length) continue
      const st = await statementOf(trx, h.id)
      const letter = await compose(trx, {
        subject: `${site}: your household owes ${dollars(st.owed_cents)}`,
        paragraphs: [
          `This is the ${st.parent_name} household's statement: ${dollars(st.owed_cents)} is owed to the unit.`,
          ...statementParagraphs(st),
          ...st.pay.map((p) => `${p.label}: ${p.url}`),
          ...(st.pay.some((p) => p.provider === 'stripe') ? [`Your payment reference is ${st.payment_reference}.`] : []),
        ],
        markdown: st.instructions ?? undefined,
        link: { label: 'See it on your family page', url: `${publicBaseUrl}/family/` },
        why: `You get this mail because the treasurer sent statements to the families who owe money to the unit. Questions? Answer this mail or ask a leader.`,
      })
      await queueMail(
        trx,
        addresses.map((to) => ({ kind: 'statement' as const, to, ...letter, sensitive: true })),
      )
      queued += addresses.length
    }
    await record(
      trx,
      caller.actor,
      'money.statements',
      `Mailed statements to ${plural(owing, 'household')} of the ${input.unit} owing at least ${dollars(min)} (${plural(queued, 'address', 'addresses')})`,
    )
    return { queued, households: owing }
  })
  if (result.queued) mail.wake()
  return result
}
