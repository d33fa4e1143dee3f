// Browser helpers for the admin pages: API calls with the session cookie, sign-in redirect, safe DOM building.
export interface ApiResult {
  ok: boolean
  status: number
  body: any
}

export async function api(method: string, path: string, body?: unknown): Promise<ApiResult> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  })
  if (res.status === 401) {
    location.href = `/login/?next=${encodeURIComponent(location.pathname + location.search)}`
    throw new Error('signed out')
  }
  const data = await res.json().catch(() => ({}))
  return { ok: res.ok, status: res.status, body: data }
}

/** The {detail} of a failed answer as one readable line. */
export const detailOf = (r: ApiResult) =>
  typeof r.body?.detail === 'string' ? r.body.detail : r.body?.detail ? JSON.stringify(r.body.detail) : `Request failed (${r.status})`

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

export const whoami = async () => (await api('GET', '/api/admin/whoami')).body as { via: string; person: any; capabilities: string[] }

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')
