// GET/POST /api/admin/messages: the messages the caller may read (their units' and their own), and sending one.
import { listMessages, MessageDetail, MessageList, MessageListQuery, NewMessage, sendMessage } from '#server/messages/messages.ts'
import { nextLink } from '#server/http/paging.ts'
import { created, defineRoute, ok } from '#server/routes.ts'

export const GET = defineRoute('messages:send', 'List messages', {
  operationId: 'listMessages',
  description:
    'Newest first, with delivery counts. A leader sees every message sent to a unit they lead (whoever sent it) and their own; admins and owners see all. Page with `limit` and the `next_cursor` of the previous page as `cursor` (also in the `Link` header). Older form: `before_id` set to the last id seen.',
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
    'One mail per address (each sees only their own), with a plain-text and an HTML part made from the Markdown body, Reply-To the sender, and a one-click unsubscribe unless `urgent`. A leader sends only to the units they lead.',
  person: true,
  body: NewMessage,
  maxBody: 64 * 1024,
  responses: created(MessageDetail, 'Sent: the message with its deliveries queued', {
    403: 'A unit, household or event you do not lead',
    409: 'Mail is not set up on this site',
    422: 'No audience, nobody in it, an unknown den, household or event, or a field that does not fit',
  }),
  handler: ({ db, env, mail, caller, body }) => sendMessage(db, caller, body, env.publicBaseUrl, mail),
})
