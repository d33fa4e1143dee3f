// Under an event's replies, for its leaders: the households that have not answered, with how to reach them, and
// "Remind them", which writes to exactly them through the messages API (audience `event.replies: ['none']`).
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { api, h, holds, onSubmit, type Route, type signedInFor } from './admin.ts'

type ReplyList = AnswerOf<Route<'GET /api/admin/calendar/{uid}/rsvps'>>
type Me = Awaited<ReturnType<typeof signedInFor>>

/** Who has not answered, and the form to remind them (while replies are open, for those who may send messages). */
export function notAnsweredPart(list: ReplyList, me: Me, sent: (said: string) => unknown) {
  const waiting = list.not_answered
  if (!waiting) return null
  const items = waiting.map((hh) =>
    h(
      'li',
      { 'data-not-answered': String(hh.household_id) },
      h('strong', {}, hh.parent_name),
      hh.phone && ' · ',
      hh.phone && h('a', { href: `tel:${hh.phone.replace(/[^\d+]/g, '')}` }, hh.phone),
      hh.email && ' · ',
      hh.email && h('a', { href: `mailto:${hh.email}` }, hh.email),
      !hh.phone && !hh.email && h('span', { class: 'muted' }, ' · no phone or email on the roster'),
    ),
  )
  return h(
    'section',
    { class: 'stack', 'aria-label': 'Not answered yet' },
    h('h4', {}, `Not answered yet: ${plural(list.not_answered_count ?? waiting.length, 'household')}`),
    waiting.length ? h('ul', { class: 'plain not-answered' }, ...items) : h('p', { class: 'muted' }, 'Every household has answered.'),
    waiting.length > 0 && list.open && holds(me, 'messages:send') && remindForm(list, sent),
  )
}

/** "Remind them": a message prefilled for the households that have not answered, sent on confirm. */
function remindForm(list: ReplyList, sent: (said: string) => unknown) {
  const subject = `Please reply: ${list.title}`
  const body = `“${list.title}” is on ${dayWords(list.date, { year: true })}${list.location ? ` at ${list.location}` : ''}. Your household has not replied yet: please say whether you are coming on the family page.`
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Remind them', hidden: true },
    h('label', {}, 'Subject', h('input', { name: 'subject', required: true, maxlength: '200', value: subject })),
    h('label', {}, 'Message', h('textarea', { name: 'body', required: true, rows: '4' }, body)),
    h('button', { type: 'submit' }, `Send to ${plural(list.not_answered!.length, 'household')}`),
  ) as HTMLFormElement
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const open = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-expanded': 'false',
      onclick: () => {
        form.hidden = !form.hidden
        open.setAttribute('aria-expanded', String(!form.hidden))
        if (!form.hidden) (form.elements.namedItem('subject') as HTMLInputElement).focus()
      },
    },
    'Remind them',
  )
  onSubmit(
    form,
    (data) =>
      api('POST', '/api/admin/messages', {
        subject: String(data.get('subject')).trim(),
        body: String(data.get('body')),
        audience: { event: { uid: list.uid, replies: ['none'] } },
      }),
    (message) => sent(`Reminder “${message.subject}” sent to ${plural(message.recipients, 'address', 'addresses')}.`),
    { problem, reset: false },
  )
  return h('div', { class: 'stack' }, open, form, problem)
}
