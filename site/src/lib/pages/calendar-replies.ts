// The public calendar, signed in: an event asking for replies gets the household's reply form in its card.
// Signed out (or with a hint that outlived its session) the card keeps its "sign in to reply" link until replies
// close (the event starts, or its sign-up closes): the page was built earlier, so it asks the clock here.
import { readHint } from '#server/auth/signed-in-hint.ts'
import type { AnswerOf } from '#server/routes.ts'
import { h, type Route } from '../admin.ts'
import { rsvpForm } from '../rsvp-form.ts'

for (const slot of document.querySelectorAll<HTMLElement>('[data-closes]'))
  if (Date.parse(slot.dataset.closes!) <= Date.now()) slot.replaceChildren(h('p', { class: 'muted' }, 'Replies are closed.'))

if (readHint(document.cookie) && document.querySelector('[data-rsvp-slot]')) {
  const res = await fetch('/api/admin/family', { credentials: 'same-origin' })
  if (res.ok) {
    const family = (await res.json()) as AnswerOf<Route<'GET /api/admin/family'>>
    for (const slot of document.querySelectorAll<HTMLElement>('[data-rsvp-slot]')) {
      const event = family.events.find((e) => e.uid === slot.dataset.rsvpSlot)
      if (!family.households.length)
        slot.replaceChildren(h('p', { class: 'muted' }, 'Your account is not linked to a household yet; ask your den leader.'))
      else if (!event) slot.replaceChildren(h('p', { class: 'muted' }, 'Replies are closed.'))
      else slot.replaceChildren(...family.households.map((hh) => rsvpForm(event, hh, { several: family.households.length > 1 })))
    }
  }
}
