// Taking attendance on a phone (components/AttendancePart.astro): one tap a scout or adult marks them here, another
// not here. Each tap is saved at once as its own PUT with its own Idempotency-Key; when no answer comes (no signal, a
// 5xx) the same request is sent again with the same key until one does, so a retry is never done twice, and a newer
// tap on the same person replaces the older one. The button says whether its mark is saved.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { byId, h, type Refusal, type Route } from './admin.ts'
import { newKey } from './retry-keys.ts'

type Attendance = AnswerOf<Route<'GET /api/admin/calendar/{uid}/attendance'>>
type Mark = { scouts: { scout_id: number; present: boolean }[]; adults?: { name: string; present: boolean }[] }

/** How long to wait before sending an unanswered mark again: soon at first, then every half minute. */
const RETRY_MS = [1000, 2000, 4000, 8000, 15_000, 30_000]

let path = ''
let started = false
/** The newest tap per person ("scout:31", "adult:dana rivera"): an older tap's retries stop when a newer one comes. */
const newest = new Map<string, string>()
const waiting = new Set<() => void>()
addEventListener('online', () => [...waiting].forEach((send) => send()))

const status = () => byId('attendance-status')

/** Sends one tap's mark until an answer comes; the answer (or the refusal) goes to `done`. */
async function send(slot: string, body: Mark, done: (ok: boolean, refusal?: string) => void, tries = 0): Promise<void> {
  const key = newest.get(slot)!
  const res = await fetch(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  }).catch(() => null)
  if (newest.get(slot) !== key) return // a newer tap on the same person took over
  if (res?.status === 401) {
    location.href = `/login/?next=${encodeURIComponent(location.pathname + location.search)}`
    return
  }
  if (res && res.status < 500) {
    newest.delete(slot)
    if (res.ok) return done(true)
    const refusal = (await res.json().catch(() => ({}))) as Refusal
    return done(false, typeof refusal.detail === 'string' ? refusal.detail : `Not saved (${res.status})`)
  }
  done(false)
  const again = () => {
    waiting.delete(again)
    clearTimeout(timer)
    void send(slot, body, done, tries + 1)
  }
  const timer = setTimeout(again, RETRY_MS[Math.min(tries, RETRY_MS.length - 1)])
  waiting.add(again)
}

/** One person's button: pressed when here; its last line says whether the mark is saved. */
function tapButton(name: string, about: string, present: boolean, mark: (present: boolean) => Mark, slot: string) {
  const state = h('span', { class: 'state' })
  const button = h(
    'button',
    { type: 'button', class: 'tap', 'aria-pressed': String(present), disabled: !started },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, '✓'),
    h('span', { class: 'who' }, h('span', { class: 'name' }, name), about ? h('span', { class: 'about' }, about) : null),
    state,
  ) as HTMLButtonElement
  const show = (words: string, unsaved = false) => {
    state.textContent = words
    button.classList.toggle('unsaved', unsaved)
  }
  show(present ? 'Here' : 'Not here')
  button.addEventListener('click', () => {
    const now = button.getAttribute('aria-pressed') !== 'true'
    button.setAttribute('aria-pressed', String(now))
    show('Saving…')
    counts()
    newest.set(slot, newKey())
    void send(slot, mark(now), (ok, refusal) => {
      if (ok) {
        show(now ? 'Here · saved' : 'Not here · saved')
        status().textContent = `${name}: ${now ? 'here' : 'not here'}, saved.`
      } else if (refusal) {
        button.setAttribute('aria-pressed', String(!now))
        show('Not saved', true)
        status().textContent = `${name}: not saved. ${refusal}`
        counts()
      } else show('Not saved yet · trying again', true)
    })
  })
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
}

byId<HTMLFormElement>('attendance-adult').addEventListener('submit', (event) => {
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
export async function showAttendance(key: string): Promise<{ ok: true; view: Attendance } | { ok: false; status: number; detail: string }> {
  path = `/api/admin/calendar/${encodeURIComponent(key)}/attendance`
  const res = await fetch(path, { credentials: 'same-origin' }).catch(() => null)
  if (!res) return { ok: false, status: 0, detail: 'No answer came back (no signal?). Reload the page to try again.' }
  if (res.status === 401) location.href = `/login/?next=${encodeURIComponent(location.pathname + location.search)}`
  const body = await res.json().catch(() => ({}))
  if (!res.ok)
    return { ok: false, status: res.status, detail: typeof body.detail === 'string' ? body.detail : `Request failed (${res.status})` }
  draw(body as Attendance)
  return { ok: true, view: body as Attendance }
}
