// Calendar: every upcoming event; the site's own are editable (date and time pickers, all-day toggle, unit,
// repeats, replies asked with their sign-up settings), others read-only. Events asking for replies show their
// headcounts and the replies with places, slots, permission slips and payments. While the CalDAV store does not answer,
// a banner and the last copy, read-only; while the site keeps the events, a note on CalDAV.
import type { DELETE as DeleteEvent, PUT as ChangeEvent } from '#routes/api/admin/calendar/[uid]/index.ts'
import type { GET as ListEvents, POST as CreateEvent } from '#routes/api/admin/calendar/index.ts'
import type { GET as Replies } from '#routes/api/admin/calendar/[uid]/rsvps/index.ts'
import type { PUT as RecordPayment } from '#routes/api/admin/calendar/[uid]/rsvps/[household_id]/payment.ts'
import type { GET as Roster } from '#routes/api/admin/roster/index.ts'
import { utcToZoned, zonedToUtc } from '#server/calendar/zone.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { clockWords, dayWords, instantWords, UNIT_WORDS } from '#server/words.ts'
import { answered, api, type ApiResult, byId, detailOf, h, holds, onSubmit, report, say, signedInFor, tell, when } from '../admin.ts'
import { replyWords } from '../rsvp-form.ts'

const me = await signedInFor('calendar:write')

type EventList = AnswerOf<typeof ListEvents>
type CalendarEvent = EventList['events'][number]
type EventFields = BodyOf<typeof CreateEvent>
type Signup = NonNullable<EventFields['signup']>
type ReplyList = AnswerOf<typeof Replies>

const FIELDS = ['title', 'unit', 'date', 'end', 'location', 'badge', 'description', 'repeat'] as const
const TIMES = ['time', 'end_time'] as const

const form = byId<HTMLFormElement>('event')
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
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
/** The site's time zone (from the build): closing times are typed and shown in it, wherever the leader is. */
const ZONE = form.dataset.timeZone!

const REPEAT_WORDS: Record<string, string> = {
  weekly: 'every week',
  monthly_weekday: 'every month on the same weekday',
  monthly_date: 'every month on the same date',
}

/** Cents as money: 123450 → "$1,234.50". */
const dollars = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })

/** A day and time in the site's time zone as RFC 3339 with the zone's offset on that day: "2027-01-08T21:00:00-06:00". */
function zonedTimestamp(date: string, time: string) {
  const at = zonedToUtc(date, time, ZONE)
  const wall = utcToZoned(at, ZONE) // a time skipped by a clock change comes back as the time it becomes
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
  const closes = signup?.closes_at ? utcToZoned(Date.parse(signup.closes_at), ZONE) : null
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
  for (const name of [...FIELDS, ...TIMES]) field(name).value = e?.[name] ?? (name === 'unit' ? 'both' : '')
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
  `${e.time ? `, ${clockWords(e.time)}${e.end_time ? `–${clockWords(e.end_time)}` : ''}` : ', all day'} · ${UNIT_WORDS[e.unit]}`

const headcount = (t: NonNullable<CalendarEvent['replies']>) =>
  `${t.yes.households} coming (${t.yes.adults} adults, ${t.yes.scouts} scouts) · ${t.maybe.households} maybe · ${t.no.households} not coming`

const moneyWords = (m: { owed_cents: number; paid_cents: number; balance_cents: number }) =>
  `Owed ${dollars(m.owed_cents)} · paid ${dollars(m.paid_cents)} · balance ${dollars(m.balance_cents)}`

/** Scout names by id from the roster, for leaders who keep it: the replies carry only the ids. */
async function scoutNames(list: ReplyList): Promise<Map<number, string>> {
  if (!list.replies.some((r) => r.scout_ids?.length) || !holds(me, 'roster:write')) return new Map()
  const res = await api<typeof Roster>('GET', '/api/admin/roster')
  if (!res.ok) return new Map()
  return new Map(res.body.households.flatMap((hh) => hh.scouts.map((s) => [s.id, [s.first_name, s.last_name].filter(Boolean).join(' ')])))
}

/** A reply's permission slip in words. */
const permissionWords = (p: ReplyList['replies'][number]['permission']) =>
  !p
    ? 'not signed'
    : p.current
      ? `signed by ${p.signed_name} on ${instantWords(p.signed_at, ZONE)}`
      : 'signed an older slip — asked to sign again'

/** One household's reply: its answer, where it stands, its scouts, slip, slots and money, and the payment form. */
function replyCard(list: ReplyList, r: ReplyList['replies'][number], names: Map<number, string>, paid: (said: string) => unknown) {
  const facts: [string, string][] = []
  if (r.scout_ids?.length) facts.push(['Scouts', r.scout_ids.map((id) => names.get(id)).join(', ') || `${r.scout_ids.length} named`])
  if (list.signup?.permission_text && r.answer !== 'no') facts.push(['Permission', permissionWords(r.permission)])
  if (r.slots.length) facts.push(['Slots', r.slots.map((s) => `${s.name}${s.count > 1 ? ` × ${s.count}` : ''}`).join(', ')])
  if (r.owed_cents !== undefined)
    facts.push(['Money', moneyWords({ owed_cents: r.owed_cents, paid_cents: r.paid_cents!, balance_cents: r.balance_cents! })])
  return h(
    'li',
    { 'data-reply': String(r.household_id) },
    h(
      'p',
      {},
      h('strong', {}, r.household),
      `: ${replyWords(r)}${r.note ? ` — “${r.note}”` : ''}`,
      r.status === 'waitlisted' && ' ',
      r.status === 'waitlisted' && h('span', { class: 'badge waitlisted' }, 'waitlisted'),
    ),
    facts.length > 0 && h('dl', { class: 'facts' }, ...facts.flatMap(([term, words]) => [h('dt', {}, term), h('dd', {}, words)])),
    r.paid_cents !== undefined && paymentForm(list.uid, r, paid),
  )
}

/** Records what a household has paid in all for the event (folded away until asked for). */
function paymentForm(uid: string, r: ReplyList['replies'][number], paid: (said: string) => unknown) {
  const form = h(
    'form',
    { class: 'stack', 'aria-label': `Record payment: ${r.household}` },
    h(
      'label',
      {},
      'Paid in all, in dollars',
      h('input', {
        type: 'number',
        name: 'paid',
        min: '0',
        step: '0.01',
        inputmode: 'decimal',
        required: true,
        value: (r.paid_cents! / 100).toFixed(2),
      }),
    ),
    h(
      'label',
      {},
      'How',
      h('select', { name: 'method' }, ...['cash', 'check', 'online', 'other'].map((m) => h('option', { value: m }, m))),
    ),
    h('label', {}, 'Note (optional)', h('input', { name: 'note', maxlength: '300', placeholder: 'Check 1042' })),
    h('button', { type: 'submit' }, 'Save'),
  ) as HTMLFormElement
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  onSubmit(
    form,
    (data) =>
      api<typeof RecordPayment>('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps/${r.household_id}/payment`, {
        paid_cents: Math.round(Number(data.get('paid')) * 100),
        method: String(data.get('method')) as BodyOf<typeof RecordPayment>['method'],
        ...(String(data.get('note')).trim() ? { note: String(data.get('note')).trim() } : {}),
      }),
    (saved) => paid(`${saved.household} has paid ${dollars(saved.paid_cents)} in all; balance ${dollars(saved.balance_cents)}.`),
    { problem, reset: false },
  )
  return h('details', {}, h('summary', {}, 'Record payment'), form, problem)
}

/** The replies to one event, shown under its card: places, slots and money first, then each household, and the CSV. */
async function showReplies(e: { uid: string }, box: HTMLElement, status: HTMLElement) {
  const res = await api<typeof Replies>('GET', `/api/admin/calendar/${encodeURIComponent(e.uid)}/rsvps`)
  if (!res.ok) return box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
  const list = res.body
  const names = await scoutNames(list)
  const paid = async (said: string) => {
    await showReplies(e, box, status)
    say(status, said)
    status.focus() // the form that had it was just redrawn
  }
  const { places } = list
  box.replaceChildren(
    h(
      'div',
      { class: 'stack' },
      places &&
        h('p', {}, `${places.confirmed} of ${places.capacity} places taken${places.waitlisted ? ` · ${places.waitlisted} waiting` : ''}`),
      list.slots.length > 0 && h('ul', {}, ...list.slots.map((s) => h('li', {}, `${s.name}: ${s.filled} of ${s.needed}`))),
      list.money && h('p', {}, moneyWords(list.money)),
      list.replies.length
        ? h('ul', { class: 'plain replies' }, ...list.replies.map((r) => replyCard(list, r, names, paid)))
        : h('p', { class: 'muted' }, 'No replies yet.'),
      h('a', { href: `/api/admin/calendar/${encodeURIComponent(e.uid)}/rsvps/export`, download: true }, 'Download the replies (CSV)'),
    ),
  )
}

/** A change the CalDAV store did not take (502): its error text (a socket error) is not for leaders. */
const NOT_TAKEN = 'Nothing was changed: the calendar server did not take it. The events below are as it last answered.'

/** Says how a change ended, the store's refusals in plain words. */
function reportChange<T>(res: ApiResult<T>, done: string) {
  if (res.status === 502) tell(NOT_TAKEN, 'error')
  else report(res, done)
}

/** When the copy was read, as the reader says it: "today at 7:20 PM", or the date and time in their time zone. */
function copiedWords(iso: string) {
  const at = new Date(iso)
  return at.toDateString() === new Date().toDateString() ? `today at ${at.toLocaleTimeString('en-US', { timeStyle: 'short' })}` : when(iso)
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
  reportChange(await api<typeof ChangeEvent>('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, body), `Skipped ${dayWords(e.date)}.`)
  await load()
}

async function load() {
  const body = answered(await api<typeof ListEvents>('GET', '/api/admin/calendar'))
  if (!body) return
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
        e.repeat &&
          e.repeat_until &&
          h('p', { class: 'muted' }, `Repeats ${REPEAT_WORDS[e.repeat]} until ${dayWords(e.repeat_until, { year: true })}`),
        e.replies && repliesPart(e, e.replies),
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
}

function repliesPart(e: { uid: string; rsvp?: boolean }, totals: NonNullable<CalendarEvent['replies']>) {
  const box = h('div', { 'data-replies': e.uid })
  // Outside the redrawn list, so what a payment did is announced and stays.
  const status = h('p', { role: 'status', tabindex: '-1' })
  return h(
    'div',
    {},
    h('p', { 'data-headcount': e.uid }, `${e.rsvp ? 'Replies' : 'Replies (no longer asking)'}: ${headcount(totals)}`),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'secondary', onclick: () => showReplies(e, box, status) }, 'See the replies'),
      e.rsvp && h('a', { href: `/admin/calendar/roster/?uid=${encodeURIComponent(e.uid)}` }, 'Trip roster'),
    ),
    box,
    status,
  )
}

async function remove(e: CalendarEvent) {
  if (!confirm(`Delete “${e.title}”? It disappears from every subscribed calendar.`)) return
  reportChange(await api<typeof DeleteEvent>('DELETE', `/api/admin/calendar/${encodeURIComponent(e.uid)}`), `Deleted “${e.title}”.`)
  await load()
}

/** The filled fields; an all-day event sends no times, a one-time event no repeat. */
function fields(): EventFields {
  const body: Record<string, unknown> = {}
  for (const name of [...FIELDS, ...(allDay.checked ? [] : TIMES)]) {
    const value = field(name).value.trim()
    if (value) body[name] = value
  }
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
    return uid
      ? api<typeof ChangeEvent>('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, fields())
      : api<typeof CreateEvent>('POST', '/api/admin/calendar', fields())
  },
  async (saved) => {
    tell(`${field('uid').value ? 'Saved' : 'Added'} “${saved.title}”. The public calendar updates in a few seconds.`)
    edit(null)
    await load()
  },
  {
    reset: false,
    // A store that stopped answering since the page loaded: say so plainly and show the banner (the form then hides).
    refused: (res) => {
      if (res.status !== 502) return detailOf(res)
      tell(NOT_TAKEN, 'error')
      void load()
      return ''
    },
  },
)
byId('cancel').addEventListener('click', () => edit(null))
await load()
