// GET /calendar/household/:token.ics: a household's private calendar feed, served by the service (never the static
// site): every event of its units, members-only ones too. The token in the link is the only credential.
import { householdFeed } from '#server/calendar/household-feed.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { Line, t } from '#server/schemas.ts'

export const GET = defineRoute('public', "A household's private calendar feed", {
  operationId: 'householdFeed',
  description:
    "The iCalendar feed a family subscribes to from the family page: the events of its household's units, public and members-only. `file` is `{token}.ics`; an unknown or replaced token is 404.",
  params: t.Object({ file: Line(100, { description: '{token}.ics, from the family page' }) }),
  responses: ok({ media: 'text/calendar' }, 'The feed', { 404: 'No such feed (unknown token, or replaced by a newer link)' }),
  async handler({ db, params }) {
    return new Response(await householdFeed(db, params.file), {
      headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, no-cache', 'x-robots-tag': 'noindex' },
    })
  },
})
