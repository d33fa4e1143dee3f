// The family page: events asking for your reply, then your own household, scouts, dens, this year's checklist and
// each scout's log (nights, hours, miles), with a form to change your contacts, emergency contact, scouts' preferred
// names and photo consent; the leaders of your scouts' units; below, whether each of your addresses gets the leaders'
// messages and the weekly digest.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, denWords, goesBy } from '#server/words.ts'
import { api, byId, detailOf, h, onSubmit, text, type Route, showStatus, showError } from '../admin.ts'
import { replyCard } from '../reply-card.ts'
import { type ScoutLog, scoutLogSection } from '../scout-log.ts'

type FamilyAnswer = AnswerOf<Route<'GET /api/admin/family'>>
type Household = FamilyAnswer['households'][number]
type Scout = Household['scouts'][number]

const res = await api('GET', '/api/admin/family')
const box = byId('family')
const logs = new Map<number, ScoutLog>(res.ok ? res.body.logs.map((l) => [l.scout_id, l]) : [])
const mailed = box.dataset.mail === 'on' // the site sends mail: a waitlisted family hears by email when it moves up
if (!res.ok) box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
else {
  byId('year').textContent = `Program year ${res.body.year.label}`
  const { events, households, leaders } = res.body
  if (!households.length) box.replaceChildren(h('p', {}, 'Your account is not linked to a household yet. Ask your den leader to link it.'))
  else
    box.replaceChildren(
      ...(events.length ? [h('h2', {}, 'Please reply')] : []),
      ...events.map((e) => replyCard(e, households, { mail: mailed })),
      ...(events.length ? [h('h2', {}, 'Your household')] : []),
      ...households.map(householdCard),
      ...(leaders.length
        ? [
            h('h2', {}, 'Your leaders'),
            h(
              'ul',
              { class: 'plain leaders', 'data-leaders': '' },
              ...leaders.map((l) =>
                h(
                  'li',
                  {},
                  h('strong', {}, l.name),
                  `, ${l.title ?? 'leader'}, ${l.unit}`,
                  h('br'),
                  h('a', { href: `mailto:${l.email}` }, l.email),
                ),
              ),
            ),
          ]
        : []),
    )
}

/** What the household's card shows of it: contacts and each scout with their den, checklist, photo consent and log. */
function householdDetails(hh: Household) {
  const fact = (term: string, value: string | null) => [h('dt', {}, term), h('dd', {}, value ?? '—')]
  const emergency = hh.emergency_phone ? [hh.emergency_name, hh.emergency_phone].filter(Boolean).join(', ') : null
  return h(
    'div',
    { 'data-details': '' },
    h(
      'dl',
      { class: 'facts' },
      ...fact('Email', hh.email),
      ...fact('Phone', hh.phone),
      ...fact('Second parent', hh.second_parent),
      ...fact("Second parent's email", hh.second_email),
      ...fact('Emergency contact', emergency),
    ),
    ...hh.scouts.map((s) =>
      h(
        'div',
        { 'data-scout': String(s.id) },
        h('h3', {}, goesBy(s)),
        h('p', {}, `${s.unit_name}${s.den ? `, ${denWords(s.den, s.unit_slug)}` : ''}`),
        h(
          'ul',
          {},
          h('li', { 'data-check': 'dues' }, `Dues: ${s.checks.dues.done ? 'paid' : 'not yet'}`),
          h('li', { 'data-check': 'health_form' }, `Health form: ${healthFormWords(s.checks.health_form)}`),
          h('li', { 'data-photos': '' }, s.photo_consent ? 'Photos: OK' : 'Photos: please leave them out'),
        ),
        scoutLogSection(logs.get(s.id), goesBy(s)),
      ),
    ),
  )
}

/** A household's card: its details, and a form to change them (PATCH /api/admin/family/households/{id}). */
function householdCard(hh: Household) {
  const formId = `household-${hh.id}`
  const field = (label: string, name: string, value: string | null, attrs: Record<string, string> = {}) =>
    h('label', {}, label, h('input', { name, value: value ?? '', ...attrs }))
  const status = h('p', { role: 'status', class: 'notice', hidden: true })
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const form = h(
    'form',
    { id: formId, class: 'stack', novalidate: true },
    field('Email', 'email', hh.email, { type: 'email', autocomplete: 'email' }),
    field('Phone', 'phone', hh.phone, { type: 'tel', autocomplete: 'tel' }),
    field('Second parent', 'second_parent', hh.second_parent),
    field("Second parent's email", 'second_email', hh.second_email, { type: 'email', autocomplete: 'off' }),
    field('Emergency contact (whom to call when we cannot be reached)', 'emergency_name', hh.emergency_name),
    field('Emergency phone', 'emergency_phone', hh.emergency_phone, { type: 'tel' }),
    ...hh.scouts.map((s) =>
      h(
        'fieldset',
        { class: 'group', 'data-scout-form': String(s.id) },
        h('legend', {}, s.first_name),
        field(`Preferred name (what ${s.first_name} goes by)`, `scout_${s.id}_preferred_name`, s.preferred_name),
        h(
          'label',
          { class: 'inline-check' },
          h('input', { type: 'checkbox', name: `scout_${s.id}_photo_consent`, checked: s.photo_consent }),
          `Photos OK: ${s.first_name} may appear in the unit's photos`,
        ),
      ),
    ),
    problem,
    h('button', { type: 'submit' }, 'Save our details'),
    status,
  ) as HTMLFormElement
  const card = h(
    'section',
    { class: 'card', 'data-household': String(hh.id) },
    h('h2', {}, hh.parent_name),
    householdDetails(hh),
    h('details', {}, h('summary', {}, 'Edit our details'), form),
  )
  onSubmit(
    form,
    (data) => {
      status.hidden = true
      const emergency = [text(data, 'emergency_name'), text(data, 'emergency_phone')]
      return api('PATCH', `/api/admin/family/households/${hh.id}`, {
        email: text(data, 'email') || null,
        phone: text(data, 'phone') || null,
        second_parent: text(data, 'second_parent') || null,
        second_email: text(data, 'second_email') || null,
        emergency_contact: emergency.some(Boolean) ? { name: emergency[0], phone: emergency[1] } : null,
        scouts: hh.scouts.map((s) => ({
          id: s.id,
          preferred_name: text(data, `scout_${s.id}_preferred_name`) || null,
          photo_consent: data.has(`scout_${s.id}_photo_consent`),
        })),
      })
    },
    (saved) => {
      card.querySelector('[data-details]')!.replaceWith(householdDetails(saved))
      showStatus('Saved: leaders see your new details now.', status)
    },
    {
      problem,
      reset: false,
      // The API names nested fields by path (emergency_contact.phone, scouts.0.preferred_name): the form's own names.
      fieldName: (field) =>
        field
          .replace(/^emergency_contact\.(name|phone)$/, 'emergency_$1')
          .replace(/^scouts\.(\d+)\.(\w+)$/, (all, i, name) => (hh.scouts[Number(i)] ? `scout_${hh.scouts[Number(i)].id}_${name}` : all))
          .split('.')[0],
    },
  )
  return card
}

/** A health form counts for 12 months from the date on it; one ticked without a date counts for this program year. */
function healthFormWords(form: Scout['checks']['health_form']) {
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
  const show = ({ addresses }: AnswerOf<Route<'GET /api/admin/family/mail'>>) =>
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
    const res = await api('PUT', '/api/admin/family/mail', { email, subscribed: box.checked })
    box.disabled = false
    if (!res.ok) {
      box.checked = !box.checked
      return showError(res, status)
    }
    // The answer says how it stands now; the box keeps its place (and focus) rather than being drawn again.
    box.checked = res.body.addresses.find((a) => a.email === email)?.subscribed ?? box.checked
    showStatus(
      box.checked
        ? `${email} gets the leaders' messages and the weekly digest again.`
        : `No more messages or digests to ${email}, except urgent ones.`,
      status,
    )
  }
  const addresses = await api('GET', '/api/admin/family/mail')
  if (addresses.ok) show(addresses.body)
  else byId('mail-addresses').replaceChildren(h('p', { class: 'error' }, detailOf(addresses)))
  mail.hidden = false
}
