// Taking attendance on a phone (components/AttendancePart.astro): one tap a scout or adult marks them here, another
// not here. Each tap is kept on the phone (lib/offline-queue.ts) and sent at once as its own PUT with its own
// Idempotency-Key; when no answer comes (no signal, a 5xx) the same request is sent again with the same key until one
// does, after a reload or offline too, so a retry is never done twice, and a newer tap on the same person replaces the
// older one. The button says whether its mark is saved; a refused tap is listed until dismissed.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { onSend, byId, h, type Route } from './admin.ts'
import { changes, enqueue, flush, flushWhenOnline, forget, onQueueChange, type Change } from './offline-queue.ts'
import { newKey } from './retry-keys.ts'

type Attendance = AnswerOf<Route<'GET /api/admin/calendar/{uid}/attendance'>>
type Mark = { scouts: { scout_id: number; present: boolean }[]; adults?: { name: string; present: boolean }[] }

let path = ''
let started = false
/** Whose taps these are (lib/offline-roster.ts); null when no account is known on this phone. */
let account: string | null = null
/** Each button's way to show its slot's state, by slot ("scout:31", "adult:dana rivera"). */
const buttons = new Map<string, (change: Change | undefined) => void>()

const status = () => byId('attendance-status')

/** Shows each button's saved state and the refused taps, from the changes this phone keeps for this event. */
async function showQueue() {
  const mine = (await changes()).filter((c) => c.path === path)
  for (const [slot, show] of buttons) show(mine.findLast((c) => c.slot === slot))
  byId('attendance-conflicts').replaceChildren(
    ...mine
      .filter((c) => c.refusal)
      .map((c) =>
        h(
          'p',
          { class: 'error' },
          `Not saved: ${c.label}. ${c.refusal!.detail} `,
          h('button', { type: 'button', class: 'secondary', onclick: () => void forget(c.key) }, 'Dismiss'),
        ),
      ),
  )
}
onQueueChange(() => void showQueue())

/** One tap kept on the phone and sent now, or when the signal is back (lib/offline-queue.ts). */
async function send(slot: string, label: string, body: Mark) {
  if (!account) {
    status().textContent = 'Not saved: sign in again first.'
    return
  }
  await enqueue({ key: newKey(), account, method: 'PUT', path, body, slot, label })
  await showQueue()
  const outcome = await flush(account)
  if (outcome === 'signed-out') status().textContent = 'Your sign-in has ended: sign in again to send the taps kept on this phone.'
}

/** One person's button: pressed when here; its last line says whether the mark is saved or waits for a signal. */
function tapButton(name: string, about: string, present: boolean, mark: (present: boolean) => Mark, slot: string) {
  const state = h('span', { class: 'state' })
  const button = h(
    'button',
    { type: 'button', class: 'tap', 'aria-pressed': String(present), disabled: !started },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, '✓'),
    h('span', { class: 'who' }, h('span', { class: 'name' }, name), about ? h('span', { class: 'about' }, about) : null),
    state,
  ) as HTMLButtonElement
  const here = () => button.getAttribute('aria-pressed') === 'true'
  let waited = false
  buttons.set(slot, (change) => {
    const marked = change && Boolean((change.body as Mark).scouts[0]?.present ?? (change.body as Mark).adults?.[0]?.present)
    if (change?.refusal) {
      // Refused: the mark goes back to what the server holds, and the conflict is listed above.
      button.setAttribute('aria-pressed', String(!marked))
      state.textContent = 'Not saved'
    } else if (change) {
      button.setAttribute('aria-pressed', String(marked))
      state.textContent = 'Not saved yet · trying again'
    } else if (waited) state.textContent = `${here() ? 'Here' : 'Not here'} · saved`
    button.classList.toggle('unsaved', Boolean(change))
    waited = Boolean(change && !change.refusal)
    counts()
  })
  button.addEventListener('click', () => {
    const now = !here()
    button.setAttribute('aria-pressed', String(now))
    state.textContent = 'Saving…'
    counts()
    status().textContent = ''
    void send(slot, `${name}: ${now ? 'here' : 'not here'}`, mark(now))
  })
  state.textContent = present ? 'Here' : 'Not here'
  return h('li', {}, button)
}

/** "5 of 7 scouts here · 2 adults", counted from the buttons as they stand. */
function counts() {
  const pressed = (id: string) => byId(id).querySelectorAll('[aria-pressed="true"]').length
  const scouts = byId('attendance-scouts').querySelectorAll('.tap').length
  byId('attendance-counts').textContent =
    `${pressed('attendance-scouts')} of ${plural(scouts, 'scout')} here · ${plural(pressed('attendance-adults'), 'adult')} here`
}

const scoutMark = (scout_id: number) => (present: boolean) => ({ scouts: [{ scout_id, present }] })
const adultMark = (name: string) => (present: boolean) => ({ scouts: [], adults: [{ name, present }] })
const aboutScout = (s: { unit: string; den: string | null }, signedUp?: boolean) =>
  [s.den ?? (s.unit === 'pack' ? 'Pack' : 'Troop'), signedUp === false ? 'not signed up' : null].filter(Boolean).join(' · ')

function addAdult(name: string, present: boolean, signedUp: boolean) {
  byId('attendance-adults').append(
    tapButton(name, signedUp ? 'signed up' : '', present, adultMark(name), `adult:${name.toLocaleLowerCase()}`),
  )
}

function draw(view: Attendance) {
  started = view.started
  buttons.clear()
  byId('attendance-about').textContent = view.started
    ? 'Tap each one who came; tap again to take it back. Each tap is saved at once.'
    : `Attendance can be taken once the event starts (${dayWords(view.date)}). Until then this is who signed up.`
  byId('attendance-scouts').replaceChildren(
    ...view.scouts.map((s) => tapButton(s.name, aboutScout(s, s.signed_up), s.present, scoutMark(s.scout_id), `scout:${s.scout_id}`)),
  )
  byId('attendance-others-part').hidden = !view.others.length
  byId('attendance-others').replaceChildren(
    ...view.others.map((s) => {
      // Chosen here, the scout joins the list above, marked as here.
      const pick = h(
        'button',
        { type: 'button', class: 'tap', disabled: !started },
        h('span', { class: 'mark', 'aria-hidden': 'true' }, '+'),
        h('span', { class: 'who' }, h('span', { class: 'name' }, s.name), h('span', { class: 'about' }, aboutScout(s))),
        h('span', { class: 'state' }, 'Came'),
      ) as HTMLButtonElement
      pick.addEventListener('click', () => {
        pick.closest('li')!.remove()
        const item = tapButton(s.name, aboutScout(s, false), false, scoutMark(s.scout_id), `scout:${s.scout_id}`)
        byId('attendance-scouts').append(item)
        ;(item.querySelector('button') as HTMLButtonElement).click()
        ;(item.querySelector('button') as HTMLButtonElement).focus()
        byId('attendance-others-part').hidden = !byId('attendance-others').children.length
      })
      return h('li', {}, pick)
    }),
  )
  byId('attendance-adults').replaceChildren()
  for (const a of view.adults) addAdult(a.name, a.present, a.signed_up)
  byId('attendance-adult').hidden = !view.started
  counts()
  byId('attendance').hidden = false
  // Taps this phone still keeps for this event show as they were made, over what the server last said.
  void showQueue()
}

onSend(byId<HTMLFormElement>('attendance-adult'), (event) => {
  event.preventDefault()
  const input = (event.target as HTMLFormElement).elements.namedItem('name') as HTMLInputElement
  const name = input.value.trim().replace(/\s+/g, ' ')
  if (!name) return
  const known = [...byId('attendance-adults').querySelectorAll<HTMLButtonElement>('.tap')].find(
    (b) => b.querySelector('.name')!.textContent!.toLocaleLowerCase() === name.toLocaleLowerCase(),
  )
  if (!known) addAdult(name, false, false)
  const button = known ?? (byId('attendance-adults').lastElementChild!.querySelector('button') as HTMLButtonElement)
  if (button.getAttribute('aria-pressed') !== 'true') button.click()
  input.value = ''
})

/**
 * Shows who came to the event an attendance key names (a uid, or `<uid>#<date>` for an occurrence of a repeating
 * event). Answers the attendance, or the refusal when there is none to show.
 */
export async function showAttendance(
  key: string,
  signedIn: string | null,
): Promise<{ ok: true; view: Attendance } | { ok: false; status: number; detail: string }> {
  path = `/api/admin/calendar/${encodeURIComponent(key)}/attendance`
  byId<HTMLAnchorElement>('attendance-csv').href = `${path}.csv`
  account = signedIn
  if (account) {
    flushWhenOnline(account)
    if (navigator.onLine) void flush(account)
  }
  const res = await fetch(path, { credentials: 'same-origin' }).catch(() => null)
  if (!res) return { ok: false, status: 0, detail: 'No answer came back (no signal?). Reload the page to try again.' }
  if (res.status === 401) location.href = `/login/?next=${encodeURIComponent(location.pathname + location.search)}`
  const body = await res.json().catch(() => ({}))
  if (!res.ok)
    return { ok: false, status: res.status, detail: typeof body.detail === 'string' ? body.detail : `Request failed (${res.status})` }
  draw(body as Attendance)
  return { ok: true, view: body as Attendance }
}
