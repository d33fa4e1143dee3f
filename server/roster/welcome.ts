// Welcoming the roster: one mail to each active household address with no account yet (in the units asked for, and
// that the caller leads), saying what the site is, naming the unit and its leaders, with a sign-in link valid 7 days.
// A household welcomed in the last 7 days is skipped.
import { loginLinkUrl, newLoginLink, until, WELCOME_VALID_DAYS } from '../account/login-links.ts'
import type { Caller } from '../auth/credential.ts'
import { randomToken } from '../auth/tokens.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, type Trx, write } from '../db/write.ts'
import { conflict, forbidden, notFound } from '../errors.ts'
import { compose } from '../mail/compose.ts'
import { queueMail } from '../mail/outbox.ts'
import type { MailSender } from '../mail/sender.ts'
import { nowIso, t } from '../schemas.ts'
import { getSetting } from '../settings/registry.ts'
import { findUnit, SlugOrId } from '../units/units.ts'
import { ledUnits } from '../auth/led-units.ts'
import { householdLeaders } from './household-leaders.ts'

export const WelcomeRequest = t.Object({ unit: t.Optional(SlugOrId) }, { additionalProperties: false, examples: [{ unit: 'pack' }, {}] })

export const WelcomeQueued = t.Object(
  { queued: t.Integer({ description: 'Welcome mails queued (one per address)' }) },
  { additionalProperties: false, examples: [{ queued: 41 }] },
)

/** The units a welcome goes to: the one asked for, else every unit the caller leads (all for admins and owners). */
async function unitsToWelcome(db: Executor, caller: Caller, unit: string | undefined) {
  const led = ledUnits(caller)
  if (unit !== undefined) {
    const found = await findUnit(db, unit)
    if (!found) throw notFound(`No unit ${unit}`)
    if (led && !led.has(found.id)) throw forbidden(`The ${found.name} is a unit you do not lead`, 'unit_out_of_scope')
    return [found.id]
  }
  const all = (await db.selectFrom('units').select('id').execute()).map((u) => u.id)
  const ids = led ? all.filter((id) => led.has(id)) : all
  if (!ids.length) throw forbidden('You lead no unit to welcome', 'unit_out_of_scope')
  return ids
}

/** One parent's address of each household to welcome: the skip rule holds per household and address. */
function addressesToWelcome(db: Executor, unitIds: number[], since: string, column: 'email' | 'second_email') {
  return db
    .selectFrom('households as h')
    .select(['h.id', `h.${column} as email`])
    .where('h.active', '=', 1)
    .where(`h.${column}`, 'is not', null)
    .where((eb) => eb(eb.fn('trim', [`h.${column}`]), '!=', ''))
    .where((eb) =>
      eb.exists(
        eb.selectFrom('scouts').select('scouts.id').whereRef('scouts.household_id', '=', 'h.id').where('scouts.unit_id', 'in', unitIds),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('people')
            .select('people.id')
            .where((p) => p('people.email', '=', p.fn<string>('lower', [p.fn('trim', [`h.${column}`])]))),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('roster_welcomes as w')
            .select('w.id')
            .whereRef('w.household_id', '=', 'h.id')
            .where('w.sent_at', '>', since)
            .where((w) => w('w.email', '=', w.fn<string>('lower', [w.fn('trim', [`h.${column}`])]))),
        ),
      ),
    )
    .orderBy('h.id')
    .execute()
}

/**
 * Active households of these units whose address (either parent's) has no account and got no welcome since `since`,
 * one per address.
 */
async function householdsToWelcome(db: Executor, unitIds: number[], since: string) {
  const rows = []
  for (const column of ['email', 'second_email'] as const) rows.push(...(await addressesToWelcome(db, unitIds, since, column)))
  rows.sort((a, b) => a.id - b.id)
  // One mail per address; every household with that address counts as welcomed.
  const byEmail = new Map<string, number[]>()
  for (const r of rows) {
    const email = r.email!.trim().toLowerCase()
    const ids = byEmail.get(email) ?? []
    if (!ids.includes(r.id)) byEmail.set(email, [...ids, r.id])
  }
  return [...byEmail].map(([email, ids]) => ({ email, id: ids[0], ids }))
}

async function queueWelcomeMail(
  trx: Trx,
  to: string,
  householdId: number,
  unitIds: number[],
  url: string,
  expiresAt: string,
  base: string,
) {
  const site = await getSetting(trx, 'site.name')
  const units = (
    await trx
      .selectFrom('units')
      .select('name')
      .where('id', 'in', (eb) => eb.selectFrom('scouts').select('unit_id').where('household_id', '=', householdId))
      .where('id', 'in', unitIds)
      .orderBy('id')
      .execute()
  ).map((u) => u.name)
  const unitWords = units.join(' and ')
  const leaders = (await householdLeaders(trx, [householdId])).map((l) => `${l.name}${l.title ? `, ${l.title}` : ''} (${l.unit})`)
  const letter = await compose(trx, {
    subject: `Welcome to ${site}`,
    paragraphs: [
      `${site} is the website of the ${unitWords}: the calendar of meetings and outings, replies to events, and news from the leaders.`,
      `Your household is on the roster of the ${unitWords}. Your family page shows your scouts, what is coming up, and lets you answer events; you sign in with the link below, no password needed.`,
      ...(leaders.length ? [`Your leaders: ${leaders.join('; ')}.`] : []),
    ],
    link: { label: 'Sign in to your family page', url },
    after: [
      `The link works once, until ${await until(trx, expiresAt)}. After that, ask for a new one with "Email me a sign-in link" on ${base}/login/`,
    ],
    why: `You get this mail because ${to} is on the roster of the ${unitWords}. If this is a mistake, tell a leader or ignore it.`,
  })
  await queueMail(trx, [{ kind: 'welcome', to, ...letter, sensitive: true, giveUpAt: expiresAt }])
}

/**
 * Mails the welcome to every address due one, each with its own 7-day sign-in link, recording each welcome: the
 * links, the outbox rows, the welcomes and the action-log entry commit together. 403 without messages:send.
 */
export async function welcomeRoster(
  db: Db,
  caller: Caller,
  input: typeof WelcomeRequest.static,
  publicBaseUrl: string,
  mail: MailSender | null,
) {
  if (!caller.capabilities.has('messages:send')) throw forbidden('Welcoming the roster mails families: it needs messages:send as well')
  if (!mail) throw conflict('Mail is not set up on this site (SMTP_URL)')
  const unitIds = await unitsToWelcome(db, caller, input.unit)
  const queued = await write(db, async (trx) => {
    const now = nowIso()
    const due = await householdsToWelcome(trx, unitIds, new Date(Date.parse(now) - WELCOME_VALID_DAYS * 86_400_000).toISOString())
    for (const h of due) {
      const token = randomToken()
      const link = await newLoginLink(trx, token, h.email, { person_id: null, household_id: h.id }, 'welcome')
      await queueWelcomeMail(trx, h.email, h.id, unitIds, loginLinkUrl(publicBaseUrl, token), link.expires_at, publicBaseUrl)
      await trx
        .insertInto('roster_welcomes')
        .values(h.ids.map((id) => ({ household_id: id, email: h.email, sent_by: caller.actor, sent_at: now })))
        .execute()
    }
    const names = (await trx.selectFrom('units').select('name').where('id', 'in', unitIds).orderBy('id').execute()).map((u) => u.name)
    await record(
      trx,
      caller.actor,
      'roster.welcome',
      `Welcomed ${due.length} ${due.length === 1 ? 'household' : 'households'} of the ${names.join(' and ')} by mail, each with a sign-in link`,
    )
    return due.length
  })
  if (queued) mail.wake()
  return { queued }
}
