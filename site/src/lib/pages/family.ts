// The family page: events asking for your reply, then your own household, scouts, dens and this year's checklist;
// below, whether each of your addresses gets the leaders' messages and the weekly digest.
import type { GET as Family } from '#routes/api/admin/family/index.ts'
import type { GET as FamilyMail, PUT as SetFamilyMail } from '#routes/api/admin/family/mail.ts'
import type { AnswerOf } from '#server/routes.ts'
import { clockWords, dayWords } from '#server/words.ts'
import { api, byId, detailOf, h, say } from '../admin.ts'
import { rsvpForm } from '../rsvp-form.ts'

const res = await api<typeof Family>('GET', '/api/admin/family')
const box = byId('family')
const mailed = box.dataset.mail === 'on' // the site sends mail: a waitlisted family hears by email when it moves up
if (!res.ok) box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
else {
  byId('year').textContent = `Program year ${res.body.year.label}`
  if (!res.body.households.length)
    box.replaceChildren(h('p', {}, 'Your account is not linked to a household yet. Ask your den leader to link it.'))
  else
    box.replaceChildren(
      ...(res.body.events.length ? [h('h2', {}, 'Please reply')] : []),
      ...res.body.events.map((e) =>
        h(
          'section',
          // The digest's reply link lands here: /family/#event-<uid>
          { class: 'card', 'data-event': e.uid, id: `event-${encodeURIComponent(e.uid)}`, tabindex: '-1' },
          h('h3', {}, e.title),
          h('p', {}, `${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ', all day'}${e.location ? ` · ${e.location}` : ''}`),
          ...res.body.households.map((hh) => rsvpForm(e, hh, { several: res.body.households.length > 1, mail: mailed })),
        ),
      ),
      ...(res.body.events.length ? [h('h2', {}, 'Your household')] : []),
      ...res.body.households.map((hh) =>
        h(
          'section',
          { class: 'card' },
          h('h2', {}, hh.parent_name),
          ...hh.scouts.map((s) =>
            h(
              'div',
              { 'data-scout': String(s.id) },
              h('h3', {}, `${s.first_name} ${s.last_name ?? ''}`.trim()),
              h('p', {}, `${s.unit_name}${s.den ? `, ${s.den} den` : ''}`),
              h(
                'ul',
                {},
                h('li', { 'data-check': 'dues' }, `Dues: ${s.checks.dues.done ? 'paid' : 'not yet'}`),
                h('li', { 'data-check': 'health_form' }, `Health form: ${healthFormWords(s.checks.health_form)}`),
              ),
            ),
          ),
        ),
      ),
    )
}

/** A health form counts for 12 months from the date on it; one ticked without a date counts for this program year. */
function healthFormWords(form: AnswerOf<typeof Family>['households'][number]['scouts'][number]['checks']['health_form']) {
  if (!form.expires_on) return form.done ? 'received' : 'not yet'
  const day = dayWords(form.expires_on, { year: true })
  return form.current ? `current until ${day}` : `ran out on ${day}; please hand in a new one`
}

// A link to one event (the weekly digest's "reply"): the cards were made after the browser looked for it, so look again.
const target = location.hash.length > 1 ? location.hash.slice(1) : ''
const landing = target && (document.getElementById(target) ?? document.getElementById(safeDecode(target)))
if (landing) {
  landing.scrollIntoView({ block: 'start' })
  landing.focus({ preventScroll: true })
}
function safeDecode(text: string) {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

// Mail from the site (the section is there only when the site sends mail).
const mail = document.getElementById('mail')
if (mail) {
  const status = byId('mail-status')
  const show = ({ addresses }: AnswerOf<typeof FamilyMail>) =>
    byId('mail-addresses').replaceChildren(
      ...addresses.map((a) =>
        h(
          'fieldset',
          { class: 'checks', 'data-address': a.email },
          h('legend', {}, a.email),
          h(
            'label',
            {},
            h('input', {
              type: 'checkbox',
              checked: a.subscribed,
              onchange: (e: Event) => change(a.email, e.currentTarget as HTMLInputElement),
            }),
            'Gets messages and the weekly digest',
          ),
        ),
      ),
    )
  async function change(email: string, box: HTMLInputElement) {
    box.disabled = true
    const res = await api<typeof SetFamilyMail>('PUT', '/api/admin/family/mail', { email, subscribed: box.checked })
    box.disabled = false
    if (!res.ok) {
      box.checked = !box.checked
      return say(status, detailOf(res), 'error')
    }
    // The answer says how it stands now; the box keeps its place (and focus) rather than being drawn again.
    box.checked = res.body.addresses.find((a) => a.email === email)?.subscribed ?? box.checked
    say(
      status,
      box.checked
        ? `${email} gets the leaders' messages and the weekly digest again.`
        : `No more messages or digests to ${email}, except urgent ones.`,
    )
  }
  const addresses = await api<typeof FamilyMail>('GET', '/api/admin/family/mail')
  if (addresses.ok) show(addresses.body)
  else byId('mail-addresses').replaceChildren(h('p', { class: 'error' }, detailOf(addresses)))
  mail.hidden = false
}
