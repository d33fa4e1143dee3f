// Browser helpers for the admin pages: typed API calls with the session cookie (the types come from the route
// definitions themselves), the sign-in redirect, safe DOM building and status messages.
import type { GET as Whoami } from '#routes/api/admin/whoami.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'

/** A refusal, as every route answers one. */
export interface Refusal {
  detail: string
  [field: string]: unknown
}

export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: Refusal }

/**
 * Calls the admin API as the signed-in person. `D` is the route (`typeof GET` of its file), which types the
 * body sent and the answer: `api<typeof ListKeys>('GET', '/api/admin/keys')`. A 401 goes to the sign-in page.
 */
export async function api<D>(method: string, path: string, body?: BodyOf<D>): Promise<ApiResult<AnswerOf<D>>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  })
  if (res.status === 401) {
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

/** Shows a message in a status element (role=status or alert) and moves focus to errors. */
export function say(target: HTMLElement, text: string, kind: 'error' | 'notice' = 'notice') {
  target.textContent = text
  target.className = kind
  target.hidden = !text
  if (kind === 'error' && text) target.focus()
}

/** The element with this id; the pages own their markup, so a missing one is a bug. */
export const byId = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E

/** Who is signed in, and what they may do. */
export async function whoami(): Promise<AnswerOf<typeof Whoami>> {
  const res = await api<typeof Whoami>('GET', '/api/admin/whoami')
  if (!res.ok) throw new Error(res.body.detail)
  return res.body
}

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')

/** A form's filled fields as query parameters (blank ones left out). */
export function formParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams()
  for (const [k, v] of new FormData(form)) if (String(v).trim()) params.set(k, String(v).trim())
  return params
}
