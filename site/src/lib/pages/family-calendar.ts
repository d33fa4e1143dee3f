// The family page's calendar part: the members-only events ahead for your households' units (the public calendar
// leaves them out), and for each household its private calendar link, made (or made again, stopping the old one) here.
// The link is shown once, when made: the site keeps only its hash.
import type { AnswerOf } from '#server/routes.ts'
import { clockWords, dayWords, UNIT_WORDS } from '#server/words.ts'
import { api, byId, h, type Route, showError, showStatus, when } from '../admin.ts'

type Calendar = AnswerOf<Route<'GET /api/admin/family/calendar'>>

const res = await api('GET', '/api/admin/family/calendar')
if (res.ok && res.body.households.length) show(res.body)

function eventWords(e: Calendar['members_events'][number]) {
  const day = `${dayWords(e.date)}${e.end ? ` to ${dayWords(e.end)}` : ''}`
  return `${day}${e.time ? `, ${clockWords(e.time)}` : ', all day'}${e.location ? ` · ${e.location}` : ''} · ${UNIT_WORDS[e.unit]}`
}

function show(calendar: Calendar) {
  byId('members-calendar').hidden = false
  byId('members-events').replaceChildren(
    calendar.members_events.length
      ? h(
          'ul',
          { class: 'plain' },
          ...calendar.members_events.map((e) =>
            h('li', { class: 'card', 'data-members-event': e.uid }, h('h3', {}, e.title), h('p', {}, eventWords(e))),
          ),
        )
      : h('p', { class: 'muted' }, 'No members-only events are coming up.'),
  )
  byId('members-feeds').replaceChildren(...calendar.households.map((hh) => feedPart(hh, calendar.households.length > 1)))
}

/** One household's link: when it was made, and the button that makes a new one (showing it, once). */
function feedPart(hh: Calendar['households'][number], several: boolean) {
  const shown = h('div', { class: 'stack' })
  const made = h(
    'p',
    {},
    `${several ? `${hh.parent_name}'s household: ` : ''}` +
      (hh.feed_made_at ? `a link was made ${when(hh.feed_made_at)}.` : 'no link yet.'),
  )
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: async () => {
        if (hh.feed_made_at && !confirm('Make a new link? The old one stops working in every calendar that uses it.')) return
        const answer = await api('POST', `/api/admin/family/households/${hh.household_id}/feed`)
        if (!answer.ok) return showError(answer, byId('members-status'))
        hh.feed_made_at = answer.body.made_at
        made.textContent = `${several ? `${hh.parent_name}'s household: ` : ''}a link was made ${when(answer.body.made_at)}.`
        button.textContent = 'Make a new link'
        const input = h('input', { readonly: true, value: answer.body.url, 'aria-label': 'Your private calendar link' })
        shown.replaceChildren(
          input,
          h('p', {}, h('a', { href: answer.body.webcal }, 'Subscribe on this phone'), ' · copy the link above into another calendar app.'),
        )
        showStatus('Your private calendar link is below. It is shown only now; keep it somewhere safe.', byId('members-status'))
      },
    },
    hh.feed_made_at ? 'Make a new link' : 'Get the link',
  )
  return h('div', { class: 'stack', 'data-feed': String(hh.household_id) }, made, button, shown)
}
