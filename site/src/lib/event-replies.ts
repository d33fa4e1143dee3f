// The replies to one event for the leader who plans it, under its card: places, slots, money and reminders first,
// then each household (answer, waitlist, scouts, permission slip, slots, money, and a form to record a payment), and the
// CSV downloads.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { instantWords } from '#server/instant-words.ts'
import { dollars, plural, replyWords, scoutName } from '#server/words.ts'
import { api, detailOf, h, holds, onSubmit, type signedInFor, type Route, showStatus } from './admin.ts'
import { notAnsweredPart } from './not-answered.ts'

type ReplyList = AnswerOf<Route<'GET /api/admin/calendar/{uid}/rsvps'>>
/** Who is looking (for the roster's scout names) and the site's time zone (for times). */
type Viewer = { me: Awaited<ReturnType<typeof signedInFor>>; zone: string }

const moneyWords = (m: { owed_cents: number; paid_cents: number; balance_cents: number }) =>
  `Owed ${dollars(m.owed_cents)} · paid ${dollars(m.paid_cents)} · balance ${dollars(m.balance_cents)}`

/** Scout names by id from the roster, for leaders who keep it: the replies carry only the ids. */
async function scoutNames(list: ReplyList, who: Viewer): Promise<Map<number, string>> {
  if (!list.replies.some((r) => r.scout_ids?.length) || !holds(who.me, 'roster:write')) return new Map()
  const res = await api('GET', '/api/admin/roster')
  if (!res.ok) return new Map()
  return new Map(res.body.households.flatMap((hh) => hh.scouts.map((s) => [s.id, scoutName(s)])))
}

/** A reply's permission slip in words. */
const permissionWords = (p: ReplyList['replies'][number]['permission'], zone: string) =>
  !p
    ? 'not signed'
    : p.current
      ? `signed by ${p.signed_name} on ${instantWords(p.signed_at, zone)}`
      : 'signed an older slip — asked to sign again'

/** One household's reply: its answer, where it stands, its scouts, slip, slots and money, and the payment form. */
function replyCard(
  list: ReplyList,
  r: ReplyList['replies'][number],
  names: Map<number, string>,
  paid: (said: string) => unknown,
  zone: string,
) {
  const facts: [string, string][] = []
  if (r.scout_ids?.length) facts.push(['Scouts', r.scout_ids.map((id) => names.get(id)).join(', ') || `${r.scout_ids.length} named`])
  // A split yes: which of its scouts still wait.
  if (r.status === 'confirmed' && r.waitlisted_scout_ids?.length)
    facts.push(['Waiting', r.waitlisted_scout_ids.map((id) => names.get(id)).join(', ') || `${r.waitlisted_scout_ids.length} named`])
  if (list.signup?.permission_text && r.answer !== 'no') facts.push(['Permission', permissionWords(r.permission, zone)])
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
      (r.status === 'waitlisted' || r.waitlisted_scouts > 0) && ' ',
      (r.status === 'waitlisted' || r.waitlisted_scouts > 0) &&
        h('span', { class: 'badge waitlisted' }, r.status === 'waitlisted' ? 'waitlisted' : `${r.waitlisted_scouts} waitlisted`),
    ),
    facts.length > 0 && h('dl', { class: 'facts' }, ...facts.flatMap(([term, words]) => [h('dt', {}, term), h('dd', {}, words)])),
    r.paid_cents !== undefined && paymentForm(list.uid, r, paid),
  )
}

const REMINDER_WORDS = { before_start: 'The reminder a day before the start', before_close: 'The reminder two days before replies close' }

/** One reminder: when it goes and how many went; households due one it could not send (no mail) to call or text. */
function reminderPart(r: NonNullable<ReplyList['reminders']>[number], zone: string) {
  const due = Date.parse(r.due_at) <= Date.now()
  return h(
    'p',
    { 'data-reminder': r.kind },
    due
      ? `${REMINDER_WORDS[r.kind]}: ${plural(r.reminded, 'household')} reminded by mail.`
      : `${REMINDER_WORDS[r.kind]} goes by mail ${instantWords(r.due_at, zone)}.`,
    r.to_remind.length > 0 && ` Still to remind (call or text them): ${r.to_remind.join(', ')}.`,
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
      api('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}/rsvps/${r.household_id}/payment`, {
        paid_cents: Math.round(Number(data.get('paid')) * 100),
        method: String(data.get('method')) as BodyOf<Route<'PUT /api/admin/calendar/{uid}/rsvps/{household_id}/payment'>>['method'],
        ...(String(data.get('note')).trim() ? { note: String(data.get('note')).trim() } : {}),
      }),
    (saved) => paid(`${saved.household} has paid ${dollars(saved.paid_cents)} in all; balance ${dollars(saved.balance_cents)}.`),
    { problem, reset: false },
  )
  return h('details', {}, h('summary', {}, 'Record payment'), form, problem)
}

/** The replies to one event, shown under its card: places, slots and money first, then each household, and the CSV. */
export async function showReplies(e: { uid: string }, box: HTMLElement, status: HTMLElement, who: Viewer) {
  const res = await api('GET', `/api/admin/calendar/${encodeURIComponent(e.uid)}/rsvps`)
  if (!res.ok) return box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
  const list = res.body
  const names = await scoutNames(list, who)
  const paid = async (said: string) => {
    await showReplies(e, box, status, who)
    showStatus(said, status)
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
      ...(list.reminders ?? []).map((r) => reminderPart(r, who.zone)),
      list.replies.length
        ? h('ul', { class: 'plain replies' }, ...list.replies.map((r) => replyCard(list, r, names, paid, who.zone)))
        : h('p', { class: 'muted' }, 'No replies yet.'),
      notAnsweredPart(list, who.me, paid),
      h('a', { href: `/api/admin/calendar/${encodeURIComponent(e.uid)}/rsvps/export`, download: true }, 'Download the replies (CSV)'),
    ),
  )
}
