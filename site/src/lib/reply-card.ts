// The reply card a family sees, on the family page and on the reply page of a mail's link (/reply/<token>): the event's
// title, when (a multi-day event as one range), where, what it is about and how to pay, then each household's reply form
// (rsvp-form.ts: places, the closing time, the cost per scout, the permission slip, slots).
import type { AnswerOf } from '#server/routes.ts'
import { h, type Route } from './admin.ts'
import { type RsvpFormOptions, rsvpForm } from './rsvp-form.ts'
import { whenWords } from './reply-words.ts'

type AskingEvent = AnswerOf<Route<'GET /api/admin/family'>>['events'][number]
type Household = Parameters<typeof rsvpForm>[1]

/** The event's card with a reply form for each household. */
export function replyCard(e: AskingEvent, households: Household[], options: RsvpFormOptions = {}): HTMLElement {
  const cost = e.signup?.cost_cents
  const pay = h('div', { class: 'message', 'data-pay': '' })
  // Sanitised on the server (server/mail/markdown.ts), like the site's Markdown pages.
  if (e.details.payment_instructions) pay.innerHTML = e.details.payment_instructions
  return h(
    'section',
    // The family page's links to one event land here: /family/#event-<uid>
    { class: 'card', 'data-event': e.uid, id: `event-${encodeURIComponent(e.uid)}`, tabindex: '-1' },
    h('h3', {}, e.title),
    h(
      'dl',
      { class: 'facts', 'data-event-facts': '' },
      h('dt', {}, 'When'),
      h('dd', { 'data-when': '' }, whenWords(e)),
      ...(e.location ? [h('dt', {}, 'Where'), h('dd', { 'data-where': '' }, e.location)] : []),
    ),
    e.details.description ? h('p', { class: 'message', 'data-description': '' }, e.details.description) : null,
    cost && e.details.payment_instructions ? h('div', {}, h('h4', {}, 'How to pay'), pay) : null,
    ...households.map((hh) => rsvpForm(e, hh, { ...options, several: households.length > 1 })),
  )
}
