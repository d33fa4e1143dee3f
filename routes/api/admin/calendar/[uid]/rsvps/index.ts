// GET/PUT /api/admin/calendar/:uid/rsvps: replies to an event that asks for them. Leaders (calendar:write) see
// every reply with headcounts; a family reads and gives its own household's reply until the event starts.
import { answerFor, repliesFor } from '#server/calendar/rsvp.ts'
import { RsvpBody, RsvpList, RsvpView } from '#server/calendar/rsvp-schemas.ts'
import { Uid } from '#server/calendar/schemas.ts'
import { signupMail } from '#server/calendar/signup-mail.ts'
import { defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('account:self', 'Replies to an event', {
  operationId: 'listReplies',
  description:
    "With `calendar:write`: every household's reply and the headcounts, also for 30 days after the event was deleted. Otherwise your own households' replies to an event that asks for them; a leader of another unit reads it so only when they have a household (403 `unit_out_of_scope` otherwise).",
  params: Uid,
  responses: ok(RsvpList, 'The event and its replies', {
    403: {
      description: 'A leader of another unit with no household of their own asks for this event’s replies',
      codes: ['unit_out_of_scope'],
    },
    404: 'The event does not ask for replies',
  }),
  handler: ({ db, caller, params }) => repliesFor(db, caller, params.uid),
})

export const PUT = defineRoute('account:self', 'Reply to an event', {
  operationId: 'reply',
  description:
    'Your household answers yes, maybe or no with how many adults and scouts come; you may change it until the event starts ' +
    'or its sign-up closes. With sign-ups: name your scouts (`scout_ids`), sign the permission slip with a yes, and take ' +
    'slots. With places (`signup.capacity`) a yes beyond them is `waitlisted` and moves up by itself in the order answered; ' +
    'with `split: true` the first scouts that fit are confirmed now and the rest wait (`waitlisted_scouts`).',
  person: true,
  params: Uid,
  body: RsvpBody,
  responses: ok(RsvpView, 'Your reply as kept', {
    403: 'Your account is not linked to that household (or to any)',
    404: 'The event does not ask for replies',
    409: 'Replies are closed (the event has started or its sign-up closed), a slot has no room left, or more scouts than places are left',
    422: 'A bad answer or count, household_id missing when you have several households, scouts not of your household, a yes without the permission slip signed, an unknown slot, or a split that cannot mean anything (not a yes, no capacity, one scout, no place free to you)',
  }),
  async handler({ db, env, caller, params, body, address, mail }) {
    const reply = await answerFor(db, caller, params.uid, body, { address, mail: signupMail(mail, env) })
    mail?.wake()
    return reply
  },
})
