// GET/POST /api/admin/messages: the messages the caller may read (their units' and their own), and sending one.
import { listMessages, sendMessage } from '#server/messages/messages.ts'
import { MessageDetail, MessageList, MessageListQuery, NewMessage } from '#server/messages/schemas.ts'
import { nextLink } from '#server/http/paging.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('messages:send', 'List messages', {
  operationId: 'listMessages',
  description:
    'Newest first, with delivery counts. A leader sees their own messages and every one that reached a unit they lead (named in the audience, or a family with a scout there), whoever sent it; admins and owners see all. Page with `limit` and the `next_cursor` of the previous page as `cursor` (also in the `Link` header). Older form: `before_id` set to the last id seen.',
  query: MessageListQuery,
  responses: ok(MessageList, 'One page of messages', { 422: 'A cursor this list did not give' }),
  async handler({ db, caller, query, request, set }) {
    const page = await listMessages(db, caller, query)
    Object.assign(set.headers, nextLink(request, page.next_cursor))
    return page
  },
})

export const POST = defineRoute('messages:send', 'Send a message to families', {
  operationId: 'sendMessage',
  description:
    'One mail per address (each sees only their own), with a plain-text and an HTML part made from the Markdown body, Reply-To the sender, and a one-click unsubscribe unless `urgent`. A leader sends only to the units they lead. Everyone, admins and owners too, sends at most `mail.messages_per_hour` messages an hour.',
  person: true,
  body: NewMessage,
  maxBody: 64 * 1024,
  responses: created(MessageDetail, 'Sent: the message with its deliveries queued', {
    403: {
      description: 'A unit, event or household you do not lead (a household with no scout in your units)',
      codes: ['audience_out_of_scope'],
    },
    409: 'Mail is not set up on this site',
    429: {
      description: 'You sent mail.messages_per_hour messages in the last hour: wait as Retry-After says',
      codes: ['message_cap_reached'],
    },
    422: 'No audience, nobody in it, an unknown den, household or event, or a field that does not fit',
  }),
  handler: ({ db, env, mail, caller, body }) => sendMessage(db, caller, body, env.publicBaseUrl, mail),
})
