// Calendar: every upcoming event; the site's own are editable (date and time pickers, all-day toggle, unit,
// repeats, replies asked with their sign-up settings), others read-only. Events asking for replies show their
// headcounts and the replies with places, slots, permission slips and payments. While the CalDAV store does not answer,
// a banner and the last copy, read-only; while the site keeps the events, a note on CalDAV.
import { utcToZoned, zonedToUtc } from '#server/calendar/zone.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { clockWords, dayWords, KIND_WORDS, plural, REPEAT_WORDS, UNIT_WORDS } from '#server/words.ts'
import {
  api,
  ownUnit,
  type ApiResult,
  type Route,
  byId,
  h,
  onSubmit,
  signedInFor,
  SITE_ZONE,
  when,
  showStatus,
  showError,
  showOutcome,
  bodyOrShowError,
} from '../admin.ts'
import { showReplies } from '../event-replies.ts'

const me = await signedInFor('/admin/calendar/')

type EventList = AnswerOf<Route<'GET /api/admin/calendar'>>
type CalendarEvent = EventList['events'][number]
type EventFields = BodyOf<Route<'POST /api/admin/calendar'>>
type Signup = NonNullable<EventFields['signup']>

const FIELDS = ['title', 'unit', 'visibility', 'date', 'end', 'location', 'badge', 'kind', 'description', 'repeat'] as const
/** What an event counts for, sent as numbers. */
const COUNTS = ['nights', 'service_hours', 'miles'] as const
const TIMES = ['time', 'end_time'] as const

const form = byId<HTMLFormElement>('event')
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
field('unit').value = ownUnit(me)
const allDay = field('all_day')
const times = byId('times')
allDay.addEventListener('change', () => (times.hidden = allDay.checked))
const repeats = byId('repeats')
field('repeat').addEventListener('change', () => (repeats.hidden = !field('repeat').value))
// Disabled while hidden, so its fields are neither checked by the browser nor sent.
const signupBox = byId<HTMLFieldSetElement>('signup')
const showSignup = () => (signupBox.hidden = signupBox.disabled = !field('rsvp').checked)
field('rsvp').addEventListener('change', showSignup)
field('closes_time').addEventListener('input', () => (field('closes_date').required = !!field('closes_time').value))

/** A day and time in the site's time zone as RFC 3339 with the zone's offset on that day: "2027-01-08T21:00:00-06:00". */
function zonedTimestamp(date: string, time: string) {
  const at = zonedToUtc(date, time, SITE_ZONE)
  const wall = utcToZoned(at, SITE_ZONE) // a time skipped by a clock change comes back as the time it becomes
  const minutes = (Date.parse(`${wall.date}T${wall.time}:00Z`) - at) / 60_000
  const two = (n: number) => String(Math.floor(n)).padStart(2, '0')
  return `${wall.date}T${wall.time}:00${minutes < 0 ? '-' : '+'}${two(Math.abs(minutes) / 60)}:${two(Math.abs(minutes) % 60)}`
}

type SlotRow = { name: string; needed: string }
const slotsBox = byId('slots')

/** The slot rows as typed. */
const slotRows = (): SlotRow[] =>
  [...slotsBox.querySelectorAll('[data-slot]')].map((row) => ({
    name: (row.querySelector('[name="slot_name"]') as HTMLInputElement).value,
    needed: (row.querySelector('[name="slot_needed"]') as HTMLInputElement).value,
  }))

/** Draws the slot rows, numbered from 1, each with its Remove button. */
function showSlots(rows: SlotRow[]) {
  slotsBox.replaceChildren(
    ...rows.map((slot, i) =>
      h(
        'div',
        { class: 'row', 'data-slot': String(i + 1) },
        h('label', {}, `Slot ${i + 1}`, h('input', { name: 'slot_name', maxlength: '100', required: true, value: slot.name })),
        h(
          'label',
          {},
          `How many (slot ${i + 1})`,
          h('input', {
            type: 'number',
            name: 'slot_needed',
            min: '1',
            max: '50',
            inputmode: 'numeric',
            required: true,
            value: slot.needed,
          }),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'aria-label': `Remove slot ${i + 1}`,
            onclick: () => {
              showSlots(slotRows().filter((_, j) => j !== i))
              byId('add-slot').focus()
            },
          },
          'Remove',
        ),
      ),
    ),
  )
}
byId('add-slot').addEventListener('click', () => {
  showSlots([...slotRows(), { name: '', needed: '1' }])
  ;(slotsBox.lastElementChild?.querySelector('input') as HTMLInputElement).focus()
})

/** Fills the sign-up fields from an event's settings (empty for none). */
function fillSignup(signup: Signup | null | undefined) {
  field('per_scout').checked = !!signup?.per_scout
  field('capacity').value = signup?.capacity?.toString() ?? ''
  const closes = signup?.closes_at ? utcToZoned(Date.parse(signup.closes_at), SITE_ZONE) : null
  field('closes_date').value = closes?.date ?? ''
  field('closes_time').value = closes?.time ?? ''
  field('closes_date').required = !!closes
  field('cost').value = signup?.cost_cents !== undefined ? (signup.cost_cents / 100).toFixed(2) : ''
  field('permission_text').value = signup?.permission_text ?? ''
  showSlots((signup?.slots ?? []).map((s) => ({ name: s.name, needed: String(s.needed) })))
}

/** The sign-up settings filled in, without the empty parts; undefined when none is. */
function signupFields(): Signup | undefined {
  const signup: Signup = {}
  if (field('per_scout').checked) signup.per_scout = true
  if (field('capacity').value) signup.capacity = Number(field('capacity').value)
  if (field('closes_date').value) signup.closes_at = zonedTimestamp(field('closes_date').value, field('closes_time').value || '23:59')
  if (field('cost').value) signup.cost_cents = Math.round(Number(field('cost').value) * 100)
  const permission = field('permission_text').value.trim()
  if (permission) signup.permission_text = permission
  const slots = slotRows().map((s) => ({ name: s.name.trim(), needed: Number(s.needed) }))
  if (slots.length) signup.slots = slots
  return Object.keys(signup).length ? signup : undefined
}

function edit(e: CalendarEvent | null) {
  form.reset()
  fillSignup(e?.signup)
  field('uid').value = e?.uid ?? ''
  const preset = { unit: ownUnit(me), visibility: 'public' } as Record<string, string>
  for (const name of [...FIELDS, ...TIMES]) field(name).value = e?.[name] ?? preset[name] ?? ''
  for (const name of COUNTS) field(name).value = e?.[name]?.toString() ?? ''
  // A repeating event is edited as its series: from its first day, with its rule.
  if (e?.first_date) field('date').value = e.first_date
  field('repeat_until').value = e?.repeat_until ?? ''
  field('skip_dates').value = (e?.skip_dates ?? []).join(', ')
  field('rsvp').checked = e?.rsvp ?? false
  showSignup()
  allDay.checked = !e?.time
  times.hidden = allDay.checked
  repeats.hidden = !field('repeat').value
  byId('form-title').textContent = e ? `Edit “${e.title}”` : 'New event'
  byId('save').textContent = e ? 'Save changes' : 'Add event'
  byId('cancel').hidden = !e
  if (e) field('title').focus()
}

const whenOf = (e: CalendarEvent) =>
  `${dayWords(e.date, { year: true })}${e.end ? ` to ${dayWords(e.end, { year: true })}` : ''}` +
  `${e.time ? `, ${clockWords(e.time)}${e.end_time ? `–${clockWords(e.end_time)}` : ''}` : ', all day'} · ${UNIT_WORDS[e.unit]}` +
  (e.visibility === 'members' ? ' · Members only' : '')

/** What the event counts for: "Campout · 2 nights · 3 miles each"; empty when nothing is said. */
const countsLine = (e: CalendarEvent) =>
  [
    e.kind && KIND_WORDS[e.kind],
    e.nights && plural(e.nights, 'night'),
    e.service_hours && `${plural(e.service_hours, 'service hour')} each`,
    e.miles && `${plural(e.miles, 'mile')} each`,
  ]
    .filter(Boolean)
    .join(' · ')

/** How many days back the calendar lists events that are over, to mark who came after the fact. */
const RECENT_DAYS = 14

/** The link to who came to an event (one occurrence of a repeating one: `<uid>#<date>`). */
const whoCame = (e: CalendarEvent) =>
  h(
    'p',
    {},
    h('a', { href: `/admin/calendar/attendance/?uid=${encodeURIComponent(e.recurring ? `${e.uid}#${e.date}` : e.uid)}` }, 'Who came'),
  )

/** The events of the last two weeks, latest first, each with its attendance link. */
function showRecent(events: CalendarEvent[]) {
  byId('recent-part').hidden = !events.length
  byId('recent').replaceChildren(
    ...events.map((e) =>
      h(
        'li',
        { class: 'card', 'data-recent': e.uid },
        h('h3', {}, e.title),
        h('p', {}, whenOf(e)),
        countsLine(e) && h('p', { class: 'muted' }, countsLine(e)),
        whoCame(e),
      ),
    ),
  )
}

/** The headcount in a line; with places or scouts named, "coming" counts scouts, as the places and the trip roster do. */
const headcount = (t: NonNullable<CalendarEvent['replies']>, signup?: CalendarEvent['signup']) =>
  (signup?.per_scout || signup?.capacity !== undefined
    ? `${plural(t.yes.scouts, 'scout')} coming (${plural(t.yes.households, 'household')}, ${plural(t.yes.adults, 'adult')})`
    : `${t.yes.households} coming (${t.yes.adults} adults, ${t.yes.scouts} scouts)`) +
  (t.waitlisted?.households ? ` · ${plural(t.waitlisted.scouts, 'scout')} waiting` : '') +
  ` · ${t.maybe.households} maybe · ${t.no.households} not coming`

/** A change the CalDAV store did not take (502): its error text (a socket error) is not for leaders. */
const NOT_TAKEN = 'Nothing was changed: the calendar server did not take it. The events below are as it last answered.'

/** Says how a change ended, the store's refusals in plain words. */
function reportChange<T>(res: ApiResult<T>, done: string) {
  if (res.status === 502) showError(NOT_TAKEN)
  else showOutcome(res, done)
}

/** When the copy was read: "today at 7:20 PM", or the date and time, in the site's time zone. */
function copiedWords(iso: string) {
  const day = (at: Date | string) => new Date(at).toLocaleDateString('en-US', { timeZone: SITE_ZONE })
  return day(iso) === day(new Date())
    ? `today at ${new Date(iso).toLocaleTimeString('en-US', { timeZone: SITE_ZONE, timeStyle: 'short' })}`
    : when(iso)
}

/** A sentence from the API with its `commands` shown as code. */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 ? h('code', {}, part) : part))

/**
 * Shows where the events are kept: the banner while the CalDAV store does not answer (then the page is read-only), the
 * note on connecting CalDAV while the site keeps them. Answers whether changes are possible.
 */
function showStore(body: EventList): boolean {
  const down = body.unreachable
  byId('unreachable').hidden = !down
  if (down) {
    byId('unreachable-detail').replaceChildren(...withCode(down.detail))
    byId('unreachable-copy').textContent = down.copied_at
      ? `Showing the events as of ${copiedWords(down.copied_at)}.`
      : 'No copy has been read yet.'
  }
  byId('site-store').hidden = body.store !== 'site'
  return !down
}

/** Skips one day of a repeating event the site made (one click, with the series otherwise unchanged). */
async function skipDay(e: CalendarEvent) {
  if (!confirm(`Skip “${e.title}” on ${dayWords(e.date)}? The other days stay.`)) return
  const { uid, mine, recurring, first_date, replies, ...rest } = e
  const body = { ...rest, date: first_date ?? e.date, skip_dates: [...(e.skip_dates ?? []), e.date] }
  reportChange(await api('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, body), `Skipped ${dayWords(e.date)}.`)
  await load()
}

async function load() {
  const all = bodyOrShowError(await api('GET', `/api/admin/calendar?past_days=${RECENT_DAYS}`))
  if (!all) return
  // Events over before today are listed apart, each with its attendance; the rest as before.
  const today = utcToZoned(Date.now(), SITE_ZONE).date
  const body = { ...all, events: all.events.filter((e) => (e.end ?? e.date) >= today) }
  showRecent(all.events.filter((e) => (e.end ?? e.date) < today).reverse())
  const writable = showStore(body)
  byId('deleted-title').hidden = !body.deleted_with_replies.length
  byId('deleted').replaceChildren(
    ...body.deleted_with_replies.map((e) =>
      h(
        'li',
        { class: 'card', 'data-deleted-event': e.uid },
        h('h3', {}, e.title),
        h(
          'p',
          { class: 'muted' },
          `Was on ${dayWords(e.date, { year: true })}; deleted ${when(e.gone_at)}. Its replies are kept for 30 days.`,
        ),
        repliesPart(e, e.totals),
      ),
    ),
  )
  form.hidden = !writable
  byId('events').replaceChildren(
    ...body.events.map((e) =>
      h(
        'li',
        { class: 'card', 'data-event': e.uid },
        h('h3', {}, e.title),
        h('p', {}, whenOf(e)),
        e.location && h('p', {}, e.location),
        countsLine(e) && h('p', { class: 'muted' }, countsLine(e)),
        e.repeat &&
          e.repeat_until &&
          h('p', { class: 'muted' }, `Repeats ${REPEAT_WORDS[e.repeat].every} until ${dayWords(e.repeat_until, { year: true })}`),
        e.replies && repliesPart(e, e.replies),
        e.date <= today && whoCame(e),
        e.mine
          ? writable &&
              h(
                'div',
                { class: 'row' },
                h('button', { type: 'button', class: 'secondary', onclick: () => edit(e) }, e.repeat ? 'Edit the series' : 'Edit'),
                e.repeat && h('button', { type: 'button', class: 'secondary', onclick: () => skipDay(e) }, 'Skip this day'),
                h('button', { type: 'button', class: 'danger', onclick: () => remove(e) }, e.repeat ? 'Delete the series' : 'Delete'),
              )
          : h('p', { class: 'muted' }, `Added in another calendar app${e.recurring ? ' (repeats)' : ''}: change it there.`),
      ),
    ),
  )
  if (!body.events.length) byId('events').append(h('li', {}, 'No upcoming events yet.'))
}

function repliesPart(e: { uid: string; rsvp?: boolean; signup?: CalendarEvent['signup'] }, totals: NonNullable<CalendarEvent['replies']>) {
  const box = h('div', { 'data-replies': e.uid })
  // Outside the redrawn list, so what a payment did is announced and stays.
  const status = h('p', { role: 'status', tabindex: '-1' })
  return h(
    'div',
    {},
    h('p', { 'data-headcount': e.uid }, `${e.rsvp ? 'Replies' : 'Replies (no longer asking)'}: ${headcount(totals, e.signup)}`),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => showReplies(e, box, status, { me, zone: SITE_ZONE }) },
        'See the replies',
      ),
      e.rsvp && h('a', { href: `/admin/calendar/roster/?uid=${encodeURIComponent(e.uid)}` }, 'Trip roster'),
      h('a', { href: `/admin/calendar/photos/?uid=${encodeURIComponent(e.uid)}` }, 'Photos'),
    ),
    box,
    status,
  )
}

async function remove(e: CalendarEvent) {
  if (!confirm(`Delete “${e.title}”? It disappears from every subscribed calendar.`)) return
  reportChange(await api('DELETE', `/api/admin/calendar/${encodeURIComponent(e.uid)}`), `Deleted “${e.title}”.`)
  await load()
}

/** The filled fields; an all-day event sends no times, a one-time event no repeat. */
function fields(): EventFields {
  const body: Record<string, unknown> = {}
  for (const name of [...FIELDS, ...(allDay.checked ? [] : TIMES)]) {
    const value = field(name).value.trim()
    if (value) body[name] = value
  }
  for (const name of COUNTS) if (field(name).value !== '') body[name] = Number(field(name).value)
  if (body.repeat) {
    if (field('repeat_until').value) body.repeat_until = field('repeat_until').value
    const skip = field('skip_dates')
      .value.split(/[\s,;]+/)
      .filter(Boolean)
    if (skip.length) body.skip_dates = skip
  }
  body.rsvp = field('rsvp').checked
  const signup = body.rsvp && signupFields()
  if (signup) body.signup = signup
  return body as EventFields
}

onSubmit(
  form,
  () => {
    const uid = field('uid').value
    return uid ? api('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, fields()) : api('POST', '/api/admin/calendar', fields())
  },
  async (saved) => {
    const said = `${field('uid').value ? 'Saved' : 'Added'} “${saved.title}”. The public calendar updates in a few seconds.`
    edit(null)
    // Said once the list shows it, so nothing opened in the old list is redrawn away after.
    await load()
    showStatus(said)
  },
  {
    reset: false,
    // A store that stopped answering since the page loaded: say so plainly and show the banner (the form then hides).
    refused: (res) => {
      if (res.status !== 502) return res.body
      showError(NOT_TAKEN)
      void load()
      return ''
    },
  },
)
byId('cancel').addEventListener('click', () => edit(null))
byId<HTMLFieldSetElement>('event-ready').disabled = false
await load()
