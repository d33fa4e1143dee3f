// Trip roster of one event (?uid=…): what is still missing first, then the counts, the scouts with their health forms
// and photo consent, the households with phones, emergency contacts, permission slips, balances and slots, the
// volunteers, the maybes and the waitlist. Print and CSV buttons; the print layout lives in the page.
import type { AnswerOf } from '#server/routes.ts'
import { clockWords, dayWords, dollars, plural, scoutName } from '#server/words.ts'
import { api, byId, detailOf, h, type Route } from '../admin.ts'
import { keepForOffline, savedAt, signedInOrOffline } from '../offline-roster.ts'

// Without a signal, the copy kept on this phone shows (lib/offline-roster.ts).
const { me, account } = await signedInOrOffline('/admin/calendar/')

type TripRoster = AnswerOf<Route<'GET /api/admin/calendar/{uid}/roster'>>
type Household = TripRoster['households'][number]
type Scout = TripRoster['scouts'][number]

const cell = (...children: (Node | string | null | false)[]) => h('td', {}, ...children)
/** A cell kept on one line when printed, so that rows stay one line high. */
const short = (...children: (Node | string | null | false)[]) => h('td', { class: 'nowrap' }, ...children)
const flag = (words: string) => h('strong', { class: 'flag' }, words)
const note = (words: string) => h('span', { class: 'note' }, ` ${words}`)
/** The rows of a table, or one row saying that no one is coming yet. */
const rowsOr = (table: HTMLTableElement, rows: HTMLElement[]) =>
  table.tBodies[0].replaceChildren(
    ...(rows.length ? rows : [h('tr', {}, h('td', { colspan: String(table.tHead!.rows[0].cells.length) }, 'No one is coming yet.'))]),
  )

/** A phone number as a link the phone can call. */
const phone = (number: string | null) => (number ? h('a', { href: `tel:${number.replace(/[^\d+]/g, '')}` }, number) : null)

/** Says why there is no roster to show, with the way back. */
function noRoster(text: string) {
  byId('loading').hidden = true
  byId('no-roster-detail').textContent = text
  byId('no-roster').hidden = false
}

function healthForm(form: Scout['health_form']) {
  if (form.current) return cell(`Current until ${dayWords(form.expires_on!, { year: true })}`)
  return cell(flag('NOT CURRENT'), note(form.expires_on ? `ends ${dayWords(form.expires_on, { year: true })}` : 'no form on file'))
}

function permission(p: Household['permission']) {
  if (!p) return short(flag('NOT signed'))
  return p.current ? short('Signed') : short(flag('Older slip'), h('span', { class: 'note no-print' }, ' sign again'))
}

function balance(cents: number | undefined) {
  if (cents === undefined) return cell()
  if (cents > 0) return short(h('strong', {}, `${dollars(cents)} due`))
  return short(cents < 0 ? `${dollars(-cents)} over` : 'Paid')
}

const slotWords = (r: Household) => r.slots.map((s) => (s.count > 1 ? `${s.name} × ${s.count}` : s.name)).join('; ')

function showHouseholds(roster: TripRoster, slip: boolean) {
  const money = roster.money !== undefined
  const slots = roster.slots.length > 0
  // Scouts named are counted in the scouts table; otherwise each household says how many it brings.
  const heads = [
    'Parent',
    'Phone',
    'Emergency contact',
    slip && 'Permission',
    money && 'Balance',
    !roster.named && 'Scouts',
    'Adults',
    slots && 'Slots',
  ]
  const table = byId<HTMLTableElement>('households')
  // Printed, the slots are read from the volunteers list instead, so that each row stays one line on the sheet.
  const head = (t: string) => h('th', { scope: 'col', ...(t === 'Slots' ? { class: 'no-print' } : {}) }, t)
  table.tHead!.replaceChildren(h('tr', {}, ...heads.filter((t) => t).map((t) => head(t as string))))
  const coming = roster.households.filter((r) => r.answer === 'yes' && r.status === 'confirmed')
  rowsOr(
    table,
    coming.map((r) =>
      h(
        'tr',
        { 'data-household': String(r.household_id) },
        h('th', { scope: 'row' }, r.household, r.second_parent && note(`and ${r.second_parent}`)),
        short(phone(r.phone) ?? '—'),
        r.emergency_phone ? short(r.emergency_name ? `${r.emergency_name} ` : '', phone(r.emergency_phone)) : cell(flag('NONE')),
        slip && permission(r.permission),
        money && balance(r.balance_cents),
        !roster.named && cell(String(r.scouts - r.waitlisted_scouts)),
        cell(String(r.adults)),
        slots && h('td', { class: 'no-print' }, slotWords(r)),
      ),
    ),
  )
}

function showLists(roster: TripRoster) {
  byId('slots-part').hidden = !roster.slots.length
  byId('slots').replaceChildren(
    ...roster.slots.map((s) =>
      h(
        'li',
        {},
        h('strong', {}, `${s.name}: ${s.filled} of ${s.needed}`),
        s.filled < s.needed && ' ',
        s.filled < s.needed && flag(`${s.needed - s.filled} more needed`),
        s.volunteers.length ? ` — ${s.volunteers.map((v) => (v.count > 1 ? `${v.household} × ${v.count}` : v.household)).join(', ')}` : '',
      ),
    ),
  )
  const line = (r: Household) =>
    h('li', {}, `${r.household}: ${plural(r.scouts, 'scout')}, ${plural(r.adults, 'adult')}`, r.phone ? ' · ' : '', phone(r.phone))
  const maybes = roster.households.filter((r) => r.answer === 'maybe')
  byId('maybes-part').hidden = !maybes.length
  byId('maybes').replaceChildren(...maybes.map(line))
  // A split yes is coming and waiting both: its waiting scouts are listed here too.
  const waiting = roster.households.filter((r) => r.answer === 'yes' && (r.status === 'waitlisted' || r.waitlisted_scouts > 0))
  byId('waitlist-part').hidden = !waiting.length
  byId('waitlist').replaceChildren(
    ...waiting.map((r) => (r.status === 'waitlisted' ? line(r) : line({ ...r, scouts: r.waitlisted_scouts, adults: 0 }))),
  )
}

function show(roster: TripRoster) {
  document.title = document.title.replace('Trip roster', `Trip roster: ${roster.title}`)
  document.querySelector('h1')!.textContent = `Trip roster: ${roster.title}`
  byId('trip-when').textContent = [
    `${dayWords(roster.date, { year: true })}${roster.time ? `, ${clockWords(roster.time)}` : ''}` +
      (roster.end_date ? ` to ${dayWords(roster.end_date, { year: true })}` : ''),
    roster.location,
  ]
    .filter(Boolean)
    .join(' · ')
  const missing = byId('missing')
  missing.textContent = roster.summary
  missing.className = `callout ${roster.missing.length ? 'missing' : 'calm'}`
  const { scouts, adults, households } = roster.coming
  const paid = roster.money ? ` · ${dollars(roster.money.paid_cents)} of ${dollars(roster.money.owed_cents)} paid` : ''
  byId('counts').textContent = `${plural(scouts, 'scout')} · ${plural(adults, 'adult')} · ${plural(households, 'household')}${paid}`
  byId<HTMLAnchorElement>('csv').href = `/api/admin/calendar/${encodeURIComponent(roster.uid)}/roster/export`

  byId('unnamed').hidden = roster.named
  byId('scouts-box').hidden = !roster.named
  const householdOf = (s: Scout) => roster.households.find((r) => r.household_id === s.household_id)?.household ?? ''
  rowsOr(
    byId<HTMLTableElement>('scouts'),
    roster.scouts.map((s) =>
      h(
        'tr',
        { 'data-scout': String(s.id) },
        // What matters at camp first, on a phone's first screen: whom not to photograph, and whose form is missing.
        h('th', { scope: 'row' }, scoutName(s)),
        s.photo_consent ? short('OK') : short(flag('NO PHOTOS')),
        healthForm(s.health_form),
        cell(s.den ? `${s.unit_name} · ${s.den}` : s.unit_name),
        cell(householdOf(s)),
      ),
    ),
  )
  showHouseholds(roster, roster.permission_slip)
  showLists(roster)
  byId('loading').hidden = true
  byId('roster').hidden = false
}

byId('print').addEventListener('click', () => window.print())

const uid = new URLSearchParams(location.search).get('uid')
if (!uid) noRoster('No event was chosen. Open the trip roster from an event on the calendar.')
else {
  const path = `/api/admin/calendar/${encodeURIComponent(uid)}` as const
  const res = await api('GET', `${path}/roster`)
  const note = byId('offline-note')
  if (res.status === 404)
    noRoster('There is no trip roster for this event: it is not in the calendar, or it does not ask families to reply.')
  else if (res.status === 0 && !me)
    noRoster('No signal, and this trip roster was not saved on this phone: open it once with a signal, in the week before the event.')
  else if (!res.ok) noRoster(detailOf(res))
  else if (!me) {
    show(res.body)
    note.textContent = `No signal: this is the copy saved on this phone${await savedAt(uid)}. Attendance taken now is sent when the signal is back.`
  } else {
    show(res.body)
    note.textContent = await keepForOffline(uid, account!)
  }
  note.hidden = !note.textContent
}
