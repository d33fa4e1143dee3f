// The owner's getting-started list: each step is done when the data says so (nothing is ticked by hand), and the
// owner may dismiss a step they will not take; the dashboard shows the list until every step is done or dismissed.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { record, unchanged, write } from '../db/write.ts'
import type { Env } from '../env.ts'
import { notFound } from '../errors.ts'
import { nowIso, OneOf, t } from '../schemas.ts'

/** What a step's check may look at. */
interface Context {
  db: Executor
  env: Readonly<Env>
  caller: Caller
}

const some = async (query: { executeTakeFirst(): Promise<unknown> }) => (await query.executeTakeFirst()) !== undefined

/** The steps, in the order a new owner takes them. */
const STEPS = {
  units: {
    title: 'Name and number each unit',
    about: 'Give the pack and the troop the names and numbers families know them by, such as Pack 123.',
    href: '/admin/units/',
    done: async ({ db }: Context) =>
      !(await some(
        db
          .selectFrom('units')
          .select('id')
          .where((w) => w.or([w('number', 'is', null), w('number', '=', '')])),
      )),
  },
  meetings: {
    title: 'Say when and where each unit meets',
    about: 'The meeting day, time and place show on each unit’s public page: the first thing a new family looks for.',
    href: '/admin/units/',
    done: async ({ db }: Context) =>
      !(await some(
        db
          .selectFrom('units')
          .select('id')
          .where((w) => w.or([w('meeting_day', 'is', null), w('meeting_time', 'is', null), w('meeting_place', 'is', null)])),
      )),
  },
  mail: {
    title: 'Set up mail',
    about:
      'Invites, messages to families and “Forgot your password?” go out by mail: whoever runs the site sets SMTP_URL and MAIL_FROM and restarts it.',
    href: '/admin/messages/',
    done: async ({ env }: Context) => env.mail !== null,
  },
  calendar: {
    title: 'Add the first event',
    about: 'Meetings, campouts and deadlines on the public calendar, which families can subscribe to.',
    href: '/admin/calendar/',
    done: async ({ db }: Context) =>
      (await some(db.selectFrom('calendar_site_events').select('uid'))) || (await some(db.selectFrom('calendar_objects').select('uid'))),
  },
  leaders: {
    title: 'Invite the other leaders',
    about: 'Den leaders, the Scoutmaster and the committee each get their own account with the roles they need.',
    href: '/admin/people/',
    done: async ({ db, caller }: Context) =>
      (await some(db.selectFrom('invites').select('id'))) ||
      (await some(
        db
          .selectFrom('people')
          .select('id')
          .where('id', '!=', caller.person?.id ?? -1)
          .where((w) =>
            w.or([
              w('global_role', 'is not', null),
              w.exists(
                w
                  .selectFrom('memberships')
                  .select('person_id')
                  .whereRef('memberships.person_id', '=', 'people.id')
                  .where('role', '=', 'leader'),
              ),
            ]),
          ),
      )),
  },
  second_factor: {
    title: 'Add a second factor to your account',
    about: 'Your account can do everything: an authenticator app or a passkey keeps it yours even if your password leaks.',
    href: '/admin/account/',
    done: async ({ db, caller }: Context) =>
      await some(
        db
          .selectFrom('second_factors')
          .select('id')
          .where('person_id', '=', caller.person?.id ?? -1)
          .where('confirmed_at', 'is not', null),
      ),
  },
  announcement: {
    title: 'Publish the first announcement',
    about: 'A short notice at the top of the public pages: sign-up night, the next campout, a change of place.',
    href: '/admin/announcements/',
    done: async ({ db }: Context) => await some(db.selectFrom('announcements').select('id')),
  },
  content_page: {
    title: 'Write the first content page',
    about: 'About us, what it costs, what to bring: the pages a family reads before they join.',
    href: '/admin/pages/',
    done: async ({ db }: Context) => await some(db.selectFrom('content_pages').select('id')),
  },
} as const

type StepName = keyof typeof STEPS
const STEP_NAMES = Object.keys(STEPS) as StepName[]

export const SetupStep = t.Object(
  {
    step: OneOf(STEP_NAMES),
    title: t.String(),
    about: t.String({ description: 'What to do, in a sentence' }),
    href: t.String({ description: 'The admin page that does it' }),
    done: t.Boolean({ description: 'The data says it is done (computed, never ticked)' }),
    dismissed: t.Boolean({ description: 'The owner chose to skip it' }),
  },
  { $id: 'SetupStep', additionalProperties: false },
)

const EXAMPLE = {
  step: 'units',
  title: STEPS.units.title,
  about: STEPS.units.about,
  href: STEPS.units.href,
  done: false,
  dismissed: false,
} as const

export const SetupList = t.Object({ steps: t.Array(SetupStep) }, { additionalProperties: false, examples: [{ steps: [EXAMPLE] }] })
export const SetupStepAnswer = t.Object(
  { step: SetupStep },
  { additionalProperties: false, examples: [{ step: { ...EXAMPLE, dismissed: true } }] },
)
export const StepParams = t.Object({ step: t.String({ maxLength: 50, description: 'The step, e.g. units or mail', examples: ['mail'] }) })

async function stepView(ctx: Context, step: StepName, dismissed: boolean) {
  const { title, about, href, done } = STEPS[step]
  return { step, title, about, href, done: await done(ctx), dismissed }
}

/** Every step with whether it is done and whether it was dismissed. */
export async function setupSteps(ctx: Context) {
  const dismissed = new Set((await ctx.db.selectFrom('setup_steps').select('step').execute()).map((r) => r.step))
  return { steps: await Promise.all(STEP_NAMES.map((step) => stepView(ctx, step, dismissed.has(step)))) }
}

/** Dismisses a step for good (again is fine, and logs nothing); 404 for a step not on the list. */
export async function dismissStep(db: Db, env: Readonly<Env>, caller: Caller, step: string) {
  if (!Object.hasOwn(STEPS, step)) throw notFound('No such getting-started step')
  const name = step as StepName
  await write(db, async (trx) => {
    const inserted = await trx
      .insertInto('setup_steps')
      .values({ step: name, dismissed_at: nowIso(), dismissed_by: caller.actor })
      .onConflict((c) => c.column('step').doNothing())
      .executeTakeFirst()
    if (!Number(inserted.numInsertedOrUpdatedRows)) return unchanged(trx)
    await record(trx, caller.actor, 'setup.dismiss', `Dismissed the getting-started step “${STEPS[name].title}”`)
  })
  return { step: await stepView({ db, env, caller }, name, true) }
}
