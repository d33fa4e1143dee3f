// Reply links in mail: /reply/<token> lets a household without an account answer one event. The token is
// `<household id>.<event uid, base64url>.<HMAC-SHA256 of both under the server's reply_link secret>`: nothing is stored
// per mail, a resent mail carries a working link, and the link dies with the household (inactive or deleted), with the
// event's sign-up (closed, started, no longer asking) or with the secret. Opening it changes nothing; only a PUT does.
import type { Db } from '../db/client.ts'
import type { Executor } from '../db/database.ts'
import { forbidden, gone, notFound } from '../errors.ts'
import { Nullable, t } from '../schemas.ts'
import { assertOpen, saveAnswer } from './answer.ts'
import { cardDetails } from './reply-card.ts'
import { factsOf, replies, standing } from './rsvp.ts'
import { FamilyRsvpEvent, type RsvpBody, RsvpView } from './rsvp-schemas.ts'
import { DEAD, readToken } from './reply-token.ts'
import type { SignupMail } from './signup-mail.ts'

/** The household and event a token answers for; 404 for a token that is not one, 410 once replies are closed. */
async function opened(db: Executor, token: string) {
  const { household, uid } = await readToken(db, token)
  const hh = await db
    .selectFrom('households')
    .select(['id', 'parent_name'])
    .where('id', '=', household)
    .where('active', '=', 1)
    .executeTakeFirst()
  if (!hh) throw notFound(DEAD)
  const event = await db.selectFrom('rsvp_events').selectAll().where('uid', '=', uid).executeTakeFirst()
  if (!event || event.asking !== 1 || event.gone_at) throw gone('This event no longer asks for replies.')
  await assertOpen(db, factsOf(event), gone)
  return { household: hh, event }
}

export const ReplyLinkView = t.Object(
  {
    event: FamilyRsvpEvent,
    household: t.Object(
      {
        id: t.Integer(),
        parent_name: t.String(),
        scouts: t.Array(
          t.Object(
            {
              id: t.Integer(),
              first_name: t.String(),
              preferred_name: Nullable(t.String()),
              last_name: Nullable(t.String()),
              unit_slug: t.String({ description: "The scout's unit: only scouts of the event's units may come" }),
            },
            { additionalProperties: false },
          ),
          { description: "The household's scouts, to choose who comes" },
        ),
      },
      { additionalProperties: false },
    ),
    reply: Nullable(RsvpView),
  },
  { additionalProperties: false },
)

/** GET: the event as the family page shows it, the household with its scouts, and its reply so far. Reads only. */
export async function replyByLink(db: Executor, token: string): Promise<typeof ReplyLinkView.static> {
  const { household, event } = await opened(db, token)
  const scouts = await db
    .selectFrom('scouts')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select(['scouts.id', 'scouts.first_name', 'scouts.preferred_name', 'scouts.last_name', 'units.slug as unit_slug'])
    .where('scouts.household_id', '=', household.id)
    .orderBy('scouts.first_name')
    .execute()
  const own = await replies(db, event, [household.id])
  return {
    event: { ...factsOf(event), ...(await standing(db, event)), details: await cardDetails(db, event), replies: own },
    household: { ...household, scouts },
    reply: own[0] ?? null,
  }
}

/** PUT: the household's answer, under the same rules as a signed-in family's, recorded as given by the link. */
export async function answerByLink(
  db: Db,
  token: string,
  body: typeof RsvpBody.static,
  context: { address: string | null; mail: SignupMail },
) {
  const { household, event } = await opened(db, token)
  const { household_id, ...answer } = body
  if (household_id !== undefined && household_id !== household.id) throw forbidden('This link answers for one household only')
  await saveAnswer(db, `household ${household.id} via reply link`, event, household.id, answer, context)
  return (await replies(db, event, [household.id]))[0]
}
