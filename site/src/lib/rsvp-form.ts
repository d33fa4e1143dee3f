// One household's reply to one event (yes, maybe or no, with how many adults and scouts), for the family page
// and the public calendar when signed in. Saving sends PUT /api/admin/calendar/{uid}/rsvps. An event with a sign-up
// adds to it: which scouts come, places and the waiting list, the closing time, the cost, a permission slip and slots.
import type { AnswerOf } from '#server/routes.ts'
import { dollars, listWords, plural, replyWords, scoutName } from '#server/words.ts'
import { onSend, api, h, type Route, SITE_ZONE, showStatus, showError } from './admin.ts'
import { overWords, splitOffer } from './reply-words.ts'

type AskingEvent = AnswerOf<Route<'GET /api/admin/family'>>['events'][number]
/** A household as the form needs it: the family page's, or the reply link's. */
type Household = {
  id: number
  parent_name: string
  scouts: { id: number; first_name: string; preferred_name: string | null; last_name: string | null; unit_slug: string }[]
}
type Reply = AnswerOf<Route<'PUT /api/admin/calendar/{uid}/rsvps'>>
type Standing = Pick<AnswerOf<Route<'GET /api/admin/calendar/{uid}/rsvps'>>, 'signup' | 'places' | 'slots'>

const ANSWERS = [
  ['yes', 'Coming'],
  ['maybe', 'Maybe'],
  ['no', 'Not coming'],
] as const

// In the site's time zone, named, as the site writes days and times: "Fri, Jan 8, 9:00 PM CST".
const closeWords = (instant: string) =>
  new Date(instant).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: SITE_ZONE,
    timeZoneName: 'short',
  })

/** What a sign-up tells before anyone answers: places, when replies close, the cost. */
function factWords({ signup, places }: Standing): string[] {
  const facts: string[] = []
  if (places)
    facts.push(
      places.left === 0
        ? 'Full: a yes joins the waiting list'
        : places.waitlisted
          ? `${plural(places.left, 'place')} left, but ${plural(places.waitlisted, 'scout')} wait first: a yes joins the waiting list`
          : `${plural(places.left, 'place')} left`,
    )
  if (signup?.closes_at) facts.push(`Replies close ${closeWords(signup.closes_at)}`)
  if (signup?.cost_cents) facts.push(`${dollars(signup.cost_cents)} per scout`)
  return facts
}

/** Where a reply stands beyond its answer: waiting list, slots taken, money. */
export function standingWords(r: Reply, mail: boolean): string {
  const words: string[] = []
  if (r.answer === 'yes' && r.status === 'waitlisted')
    words.push(
      mail
        ? 'You are on the waiting list; you will get an email if a place frees up.'
        : 'You are on the waiting list; you move up by yourself if a place frees up.',
    )
  else if (r.answer === 'yes' && r.waitlisted_scouts)
    words.push(
      `${plural(r.scouts - r.waitlisted_scouts, 'scout')} confirmed; ${r.waitlisted_scouts} on the waiting list, moving up as places free` +
        (mail ? ' (you will get an email).' : '.'),
    )
  if (r.slots.length) words.push(`You take: ${listWords(r.slots.map((s) => (s.count > 1 ? `${s.name} × ${s.count}` : s.name)))}.`)
  const { owed_cents: owed = 0, paid_cents: paid = 0, balance_cents: balance = 0 } = r
  if (owed || paid)
    words.push(
      balance > 0
        ? `You owe ${dollars(balance)}; paid ${dollars(paid)}.`
        : balance < 0
          ? `Paid ${dollars(paid)}; ${dollars(-balance)} is to be paid back to you.`
          : `Paid ${dollars(paid)}: nothing left to pay.`,
    )
  return words.join(' ')
}

const signedWords = (r: Reply | undefined) =>
  !r?.permission
    ? 'A yes needs the slip signed.'
    : r.permission.current
      ? `Signed by ${r.permission.signed_name}. Leave blank to keep your signature.`
      : 'The slip changed since you signed; please sign again.'

export interface RsvpFormOptions {
  several?: boolean
  mail?: boolean
  /** The reply link's API path (/api/reply/<token>): read and answer through it instead of the signed-in family's. */
  via?: `/api/reply/${string}`
}

let forms = 0

/** The household's scouts who may come: those of the event's unit (of either for an event of both). */
const mayCome = (event: AskingEvent, household: Household) =>
  household.scouts.filter((s) => event.unit === 'both' || s.unit_slug === event.unit)

/** The reply form of one household (with its current reply), or its reply alone once replies are closed. */
export function rsvpForm(
  event: AskingEvent,
  household: Household,
  { several = false, mail = false, via }: RsvpFormOptions = {},
): HTMLElement {
  let reply: Reply | undefined = event.replies.find((r) => r.household_id === household.id)
  const who = several ? ` (${household.parent_name})` : ''
  const { signup } = event
  if (!event.open)
    return h(
      'p',
      { class: 'muted' },
      `Replies are closed${who}. ${reply ? `Your reply: ${replyWords(reply)}. ${standingWords(reply, mail)}`.trim() : 'You did not reply.'}`,
    )
  const n = ++forms
  const status = h('p', { role: 'status', hidden: true })
  const count = (name: 'adults' | 'scouts', label: string) =>
    h(
      'label',
      {},
      label,
      h('input', { type: 'number', name, min: '0', max: '20', inputmode: 'numeric', value: String(reply?.[name] ?? 1) }),
    )
  const facts = h('ul', { class: 'plain', 'data-facts': '' })
  let places = event.places
  const drawFacts = (s: Standing) => {
    places = s.places
    facts.replaceChildren(...factWords(s).map((f) => h('li', {}, f)))
  }
  const over = h('p', { class: 'error', 'data-over': '', hidden: true })
  // With more scouts than places left, the family chooses: all wait together (the default), or split (split.ts).
  const splitLabel = h('span', {})
  const choice = (value: string, label: HTMLElement | string, checked: boolean) =>
    h('label', { class: 'inline-check' }, h('input', { type: 'radio', name: `split-${n}`, value, checked }), label)
  const splitChoice = h(
    'fieldset',
    { class: 'group', 'data-split': '', hidden: true },
    h('legend', {}, 'More scouts than places'),
    choice('together', 'All wait together', !reply?.waitlisted_scouts || reply.status !== 'confirmed'),
    choice('split', splitLabel, !!reply?.waitlisted_scouts && reply.status === 'confirmed'),
  )
  drawFacts(event)

  const whoComes = signup?.per_scout
    ? h(
        'fieldset',
        { class: 'checks' },
        h('legend', {}, 'Who is coming?'),
        ...mayCome(event, household).map((s) =>
          h(
            'label',
            {},
            h('input', { type: 'checkbox', name: 'scout', value: String(s.id), checked: !!reply?.scout_ids?.includes(s.id) }),
            scoutName(s),
          ),
        ),
      )
    : null

  const signHint = h('p', { id: `sign-hint-${n}` })
  const drawSigned = () => {
    signHint.textContent = signedWords(reply)
    signHint.className = reply?.permission && !reply.permission.current ? 'error' : 'muted'
  }
  drawSigned()
  const slip = signup?.permission_text
    ? h(
        'fieldset',
        { class: 'group' },
        h('legend', {}, 'Permission slip'),
        h('p', { class: 'message' }, signup.permission_text),
        h(
          'label',
          {},
          'Type your name to sign',
          h('input', { name: 'signed_name', maxlength: '200', autocomplete: 'name', 'aria-describedby': signHint.id }),
        ),
        signHint,
      )
    : null

  // Each slot: its line ("Driver (4 seats) — 1 of 2 taken") and how many this household takes, up to what is left.
  const slots = (signup?.slots ?? []).map((s) => {
    const line = h('span', {})
    const input = h('input', {
      type: 'number',
      min: '0',
      inputmode: 'numeric',
      value: String(reply?.slots.find((r) => r.name === s.name)?.count ?? 0),
    }) as HTMLInputElement
    return { name: s.name, line, input, label: h('label', {}, line, h('span', { class: 'muted' }, 'How many you take'), input) }
  })
  const drawSlots = (filled: Standing['slots']) => {
    for (const s of slots) {
      const f = filled.find((x) => x.name === s.name)
      if (!f) continue
      const own = reply?.slots.find((r) => r.name === s.name)?.count ?? 0
      s.line.textContent = `${s.name} — ${f.filled} of ${f.needed} taken`
      s.input.max = String(Math.max(f.needed - f.filled + own, 0))
    }
  }
  drawSlots(event.slots)

  const form = h(
    'form',
    { class: 'stack rsvp', 'data-rsvp': event.uid },
    signup ? facts : null,
    h(
      'fieldset',
      { class: 'group' },
      h('legend', {}, `Are you coming?${who}`),
      h(
        'div',
        { class: 'row' },
        ...ANSWERS.map(([value, label]) =>
          h(
            'label',
            { class: 'inline-check' },
            h('input', { type: 'radio', name: `answer-${n}`, value, required: true, checked: reply?.answer === value }),
            label,
          ),
        ),
      ),
    ),
    whoComes
      ? h('div', { class: 'stack' }, whoComes, h('div', { class: 'row' }, count('adults', 'Adults')))
      : h('div', { class: 'row' }, count('adults', 'Adults'), count('scouts', 'Scouts and siblings')),
    slip,
    slots.length ? h('fieldset', { class: 'group' }, h('legend', {}, 'Volunteer slots'), ...slots.map((s) => s.label)) : null,
    h('label', {}, 'Note for the leaders (optional)', h('input', { name: 'note', maxlength: '300', value: reply?.note ?? '' })),
    over,
    splitChoice,
    h('button', { type: 'submit' }, reply ? 'Change reply' : 'Send reply'),
    status,
  ) as HTMLFormElement
  if (signup && reply) showStatus(`Your reply: ${replyWords(reply)}. ${standingWords(reply, mail)}`.trim(), status)

  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
  const chosenAnswer = () => (form.querySelector(`input[name="answer-${n}"]:checked`) as HTMLInputElement | null)?.value
  const chosenScouts = () => (whoComes ? form.querySelectorAll('input[name="scout"]:checked').length : Number(field('scouts').value || 0))
  // Ticked scouts in the order ticked: a split confirms the first ones.
  let picked = [...(reply?.scout_ids ?? [])]
  const ticked = () => {
    const on = [...form.querySelectorAll<HTMLInputElement>('input[name="scout"]:checked')].map((i) => Number(i.value))
    picked = [...picked.filter((id) => on.includes(id)), ...on.filter((id) => !picked.includes(id))]
    return picked
  }
  const offer = () => (chosenAnswer() === 'yes' ? splitOffer(chosenScouts(), places, reply) : 0)
  const splitting = () =>
    !!offer() && (form.querySelector(`input[name="split-${n}"]:checked`) as HTMLInputElement | null)?.value === 'split'
  const drawOver = () => {
    const now = offer()
    const first = whoComes ? ticked().slice(0, now) : []
    const names = first.map((id) => household.scouts.find((x) => x.id === id)).filter((x) => !!x)
    splitLabel.textContent = `Confirm ${now} now, the rest wait${names.length ? ` (${listWords(names.map(scoutName))} first)` : ''}`
    splitChoice.hidden = !now
    over.textContent = chosenAnswer() === 'yes' ? overWords(chosenScouts(), places, reply, splitting()) : ''
    over.hidden = !over.textContent
  }
  form.addEventListener('input', drawOver)
  form.addEventListener('change', drawOver)
  drawOver()
  onSend(form, async (e) => {
    e.preventDefault()
    const answer = (form.querySelector(`input[name="answer-${n}"]:checked`) as HTMLInputElement | null)?.value as
      Reply['answer'] | undefined
    if (!answer) return showError('Choose coming, maybe or not coming.', status)
    const signed = slip ? field('signed_name').value.trim() : ''
    if (slip && answer === 'yes' && !signed && !reply?.permission?.current) {
      showError('A yes needs the permission slip signed: type your name under it.', status)
      return field('signed_name').focus()
    }
    const scoutIds = ticked()
    const coming = answer !== 'no'
    const body = {
      answer,
      adults: coming ? Number(field('adults').value || 0) : 0,
      scouts: !coming ? 0 : whoComes ? scoutIds.length : Number(field('scouts').value || 0),
      ...(field('note').value.trim() ? { note: field('note').value.trim() } : {}),
      ...(several && !via ? { household_id: household.id } : {}),
      ...(whoComes ? { scout_ids: coming ? scoutIds : [] } : {}),
      ...(splitting() ? { split: true } : {}),
      ...(signed ? { permission: { signed_name: signed } } : {}),
      // Every slot is sent, so a 0 gives it up; not coming gives them all up.
      ...(slots.length
        ? { slots: coming ? slots.map((s) => ({ name: s.name, count: Number(s.input.value || 0) })).filter((s) => s.count > 0) : [] }
        : {}),
    }
    const path = `/api/admin/calendar/${encodeURIComponent(event.uid)}/rsvps` as const
    const res = via ? await api('PUT', via, body) : await api('PUT', path, body)
    if (!res.ok) showError(res, status)
    else {
      reply = res.body
      showStatus(
        signup
          ? `Thank you: ${replyWords(reply)}. ${standingWords(reply, mail)}`.trim()
          : `Thank you: ${replyWords(reply)}. You can change it until the event starts.`,
        status,
      )
      if (slip) {
        field('signed_name').value = ''
        drawSigned()
      }
      ;(form.querySelector('button[type="submit"]') as HTMLButtonElement).textContent = 'Change reply'
    }
    if (signup) {
      // The places and slots as they stand now: after this reply, or after the others' that got it refused.
      const fresh = via ? await api('GET', via) : await api('GET', path)
      if (fresh.ok) {
        const standing = 'event' in fresh.body ? fresh.body.event : fresh.body
        drawFacts(standing)
        drawSlots(standing.slots)
      }
      drawOver()
    }
  })
  return form
}
