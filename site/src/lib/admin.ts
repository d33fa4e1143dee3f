// Browser helpers for the admin pages: typed API calls with the session cookie (method, path, body and answer
// checked against the route table), the sign-in redirect, safe DOM building and status messages.
import { CAPABILITY_WORDS } from '#server/auth/capabilities.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import type { MethodAt, Route, RouteAt } from './api-routes.ts'
import { type AdminHref, needsOf } from './admin-pages.ts'
import { clearFieldErrors, showRefusal } from './field-errors.ts'
import { SIGNED_IN_COOKIE } from '#server/auth/signed-in-hint.ts'
import { instantWords } from '#server/instant-words.ts'
import { retryKey } from './retry-keys.ts'

/** A refusal, as every route answers one. */
export interface Refusal {
  detail: string
  code?: string
  /** On a 422: every problem, by field. */
  errors?: { field: string; code: string; detail: string }[]
  [field: string]: unknown
}

export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: Refusal }

export type { Route } from './api-routes.ts'

const NO_ANSWER = 'No answer came back (the connection dropped). Send it again: it will not be done twice.'

/**
 * Calls the API as the signed-in person. The method and path pick the route from the route table, which types the
 * body sent and the answer: `api('GET', '/api/admin/keys')`; a path no route has, or a method its route lacks, does
 * not compile. A 401 goes to the sign-in page. A POST carries an Idempotency-Key, the same one when it is sent
 * again after its answer was lost (retry-keys.ts); a lost answer is a refusal with status 0.
 */
export async function api<P extends `/${string}`, M extends MethodAt<P>>(
  method: M,
  path: P,
  ...[body]: BodyOf<RouteAt<M, P>> extends undefined ? [] : [body: BodyOf<RouteAt<M, P>>]
): Promise<ApiResult<AnswerOf<RouteAt<M, P>>>> {
  const retry = method === 'POST' ? retryKey(path, body) : null
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
  if (retry) headers['idempotency-key'] = retry.key
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  }).catch(() => null)
  retry?.answered(res?.status ?? 0)
  if (!res) return { ok: false, status: 0, body: { detail: NO_ANSWER } }
  if (res.status === 401) {
    document.cookie = `${SIGNED_IN_COOKIE}=; Path=/; Max-Age=0` // the hint outlived its session
    location.href = `/login/?next=${encodeURIComponent(location.pathname + location.search)}`
    return new Promise(() => {}) // the page is leaving for the sign-in page
  }
  const data = await res.json().catch(() => ({ detail: `Request failed (${res.status})` }))
  return res.ok ? { ok: true, status: res.status, body: data } : { ok: false, status: res.status, body: data }
}

/** The {detail} of a refusal as one readable line. */
export const detailOf = (r: { status: number; body: Refusal }) =>
  typeof r.body?.detail === 'string' ? r.body.detail : `Request failed (${r.status})`

type Child = Node | string | null | undefined | false
/** Builds an element; text is always set as text, never parsed as HTML. */
export function h(tag: string, attrs: Record<string, string | boolean | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v as EventListener)
    else if (v === true) el.setAttribute(k, '')
    else if (v !== false) el.setAttribute(k, v)
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c)
  return el
}

/** The element with this id; the pages own their markup, so a missing one is a bug. */
export const byId = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E

// A status element is the page's status line (#status, role=status) or a form's problem line (role=alert): an
// error moves focus to it so a screen reader reads it at once; an empty text hides it.
function show(where: HTMLElement, text: string, kind: 'error' | 'notice') {
  where.textContent = text
  where.className = kind
  where.hidden = !text
  if (kind === 'error' && text) where.focus()
}

/** Shows a notice in a status element, the page's status line unless told; an empty text hides it. */
export const showStatus = (text: string, where: HTMLElement = byId('status')) => show(where, text, 'notice')

/** Shows a problem, in words or as a call's refusal, in a status element (the page's status line unless told). */
export const showError = (problem: string | { status: number; body: Refusal }, where: HTMLElement = byId('status')) =>
  show(where, typeof problem === 'string' ? problem : detailOf(problem), 'error')

/** Shows how a call ended in the page's status line: `done` on success, the refusal otherwise. Whether it succeeded. */
export function showOutcome<T>(res: ApiResult<T>, done: string | ((body: T) => string)): res is { ok: true; status: number; body: T } {
  if (res.ok) showStatus(typeof done === 'string' ? done : done(res.body))
  else showError(res)
  return res.ok
}

/**
 * As `showOutcome`, for a change the page's list shows: a success is said once `redraw` has drawn the list again, so
 * whoever reads "Deleted …" finds the list already without it; a refusal is said at once, then the list is redrawn.
 */
export async function showOutcomeRedrawn<T>(res: ApiResult<T>, done: string, redraw: () => Promise<unknown>): Promise<void> {
  if (!res.ok) showError(res)
  await redraw()
  if (res.ok) showStatus(done)
}

/** The body of a successful answer; a refusal is shown in the page's status line instead, giving undefined. */
export function bodyOrShowError<T>(res: ApiResult<T>): T | undefined {
  if (res.ok) return res.body
  showError(res)
}

interface SubmitOptions<T> {
  /** Where a refusal is shown; the form's `#<id>-error` element (in the form, or else in the page) by default. */
  problem?: HTMLElement
  /** The refusal in words, when the detail and its field problems alone do not say enough. */
  refused?: (refusal: { status: number; body: Refusal }) => string | Refusal
  /** The form's name for a field the API names by path (`emergency_contact.phone` → `emergency_phone`). */
  fieldName?: (apiField: string) => string
  /** Clear the form after a success (default true). */
  reset?: boolean
}

// A form without an action is sent only by its page's script. Sent natively it would reload the page with its fields,
// a password among them, in the address; so one sent before its script has taken it (while the page still asks who
// is signed in) waits, and is sent once the script takes it.
const taken = new WeakSet<HTMLFormElement>()
const waiting = new WeakMap<HTMLFormElement, HTMLElement | null>()
document.addEventListener(
  'submit',
  (event) => {
    const form = event.target as HTMLFormElement
    if (form.hasAttribute('action') || taken.has(form)) return
    event.preventDefault()
    waiting.set(form, event.submitter)
  },
  true,
)

/** Takes a form's sending: `handler` runs on each submit, from one the page received before this call on. */
export function onSend(form: HTMLFormElement, handler: (event: SubmitEvent) => unknown) {
  form.addEventListener('submit', handler)
  taken.add(form)
  const submitter = waiting.get(form)
  if (waiting.delete(form)) form.requestSubmit(submitter ?? undefined)
}

/**
 * On submit, sends the form with `send`. A refusal shows next to the field it names, or else above the form;
 * a success clears the form and its errors and runs `done` with the answer.
 */
export function onSubmit<T>(
  form: HTMLFormElement,
  send: (data: FormData) => Promise<ApiResult<T>>,
  done: (body: T) => unknown,
  { problem: given, refused, fieldName, reset = true }: SubmitOptions<T> = {},
) {
  let sending = false
  onSend(form, async (event) => {
    event.preventDefault()
    // A second press while the first is on its way would send it twice (a payment recorded twice).
    if (sending) return
    sending = true
    try {
      // Found when sent: a form drawn by a script is set up before it is in the page.
      const problem = given ?? form.querySelector<HTMLElement>(`[id="${form.id}-error"]`) ?? byId(`${form.id}-error`)
      const res = await send(new FormData(form))
      if (!res.ok) {
        const shown = refused ? refused(res) : typeof res.body?.detail === 'string' ? res.body : detailOf(res)
        if (showRefusal(form, shown, (text) => showError(text, problem), fieldName) && problem !== byId('status')) problem.hidden = true
        return
      }
      clearFieldErrors(form)
      problem.hidden = true
      if (reset) form.reset()
      await done(res.body)
    } finally {
      sending = false
    }
  })
}

/** A form field's text, trimmed. */
export const text = (data: FormData, name: string) => String(data.get(name) ?? '').trim()
/** A form field's text, trimmed, or null when blank (a field to clear). */
export const orNull = (data: FormData, name: string) => text(data, name) || null
/** A form's input by name. */
export const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement

let signedIn: Promise<AnswerOf<Route<'GET /api/admin/whoami'>>> | undefined
/** Who is signed in, and what they may do (asked once per page). */
export function whoami(): Promise<AnswerOf<Route<'GET /api/admin/whoami'>>> {
  signedIn ??= api('GET', '/api/admin/whoami').then((res) => {
    if (!res.ok) throw new Error(res.body.detail)
    return res.body
  })
  return signedIn
}

/**
 * The signed-in person, when they may use this admin page (what it needs is in lib/admin-pages.ts) and their second
 * factor is not overdue. Otherwise the page says so plainly instead of showing controls that would be refused, and the
 * page's script goes no further.
 */
export async function signedInFor(page: AdminHref): Promise<AnswerOf<Route<'GET /api/admin/whoami'>>> {
  const needs = needsOf(page)
  const me = await whoami()
  // Past the day the unit set for adding a second factor, only the account page opens (the banner says why).
  if (me.second_factor?.locked && location.pathname !== '/admin/account/') {
    byId('content').replaceChildren(h('p', {}, h('a', { href: '/admin/account/' }, 'Add a second factor on your account page')))
    return new Promise(() => {})
  }
  if (!needs || holds(me, needs)) return me
  byId('content').replaceChildren(
    h('p', {}, `This page is for people who may: ${CAPABILITY_WORDS[needs].toLowerCase()}. Your account cannot use it.`),
    h('p', {}, h('a', { href: holds(me, 'leads:read') ? '/admin/' : '/family/' }, 'Back to your start page')),
  )
  return new Promise(() => {})
}

/** Whether the signed-in credential holds a capability named in the markup (`data-needs`). */
export const holds = (me: AnswerOf<Route<'GET /api/admin/whoami'>>, capability: string | undefined) =>
  (me.capabilities as readonly string[]).includes(capability ?? '')

/** Whether the signed-in person acts for a unit (id or slug): whoami's led_units, the server's own answer. */
export const leadsUnit = (me: AnswerOf<Route<'GET /api/admin/whoami'>>, unit: number | string) =>
  me.led_units.every_unit || me.led_units.units.some((u) => u.unit_id === unit || u.slug === unit)

/** The unit a leader writes for by default: the one they lead; both for a leader of both, an admin or an owner. */
export function ownUnit(me: AnswerOf<Route<'GET /api/admin/whoami'>>): 'pack' | 'troop' | 'both' {
  const led = me.led_units.units
  return led.length === 1 && !me.led_units.every_unit ? (led[0].slug as 'pack' | 'troop') : 'both'
}

/** The site's time zone (setting `site.timezone`, put on every page's body at build time). */
export const SITE_ZONE = document.body.dataset.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone

/** An instant in the site's time zone, as the site writes times: "Nov 23, 2026, 7:20 PM". */
export const when = (iso: string | null) => (iso ? instantWords(iso, SITE_ZONE) : '—')

/** A form's filled fields as query parameters (blank ones left out). */
export function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams()
  for (const [k, v] of new FormData(form)) if (String(v).trim()) params.set(k, String(v).trim())
  return params
}
