// The catalog pages' search: the form's query sent to the public GET /api/catalog/search (no credential, the same
// answer a bot gets), the matches shown as a table, and further pages by the answer's next_cursor.
interface Match {
  season: string
  base_name: string
  row_name: string
  variant: string
  status: string
  game_mode: string
  released_at: string | null
  confirmed: boolean
}

const byId = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E
const form = byId<HTMLFormElement>('catalog-search')
const status = byId('catalog-status')
const results = byId('catalog-results')
const more = byId<HTMLButtonElement>('catalog-more')
let next: string | null = null
let shown = 0
let body: HTMLTableSectionElement | null = null

function cell(row: HTMLTableRowElement, text: string, badge = false) {
  const td = row.insertCell()
  if (!badge) td.textContent = text
  else {
    const span = td.appendChild(document.createElement('span'))
    span.className = `badge ${text}`
    span.textContent = text
  }
}

/** A new table for the first page of matches; later pages add rows to it. */
function table(): HTMLTableSectionElement {
  results.replaceChildren()
  const box = results.appendChild(document.createElement('div'))
  box.className = 'scroll'
  box.tabIndex = 0
  box.setAttribute('role', 'region')
  box.setAttribute('aria-label', 'Matches')
  const t = box.appendChild(document.createElement('table'))
  const head = t.createTHead().insertRow()
  for (const name of ['Season', 'Row', 'Sprite', 'Variant', 'Status', 'Mode', 'Released']) {
    const th = head.appendChild(document.createElement('th'))
    th.scope = 'col'
    th.textContent = name
  }
  return t.createTBody()
}

async function ask(cursor: string | null) {
  const params = new URLSearchParams(new FormData(form) as unknown as Record<string, string>)
  if (cursor) params.set('cursor', cursor)
  more.disabled = true
  status.textContent = 'Searching…'
  const res = await fetch(`/api/catalog/search?${params}`).catch(() => null)
  more.disabled = false
  const answer = res ? await res.json().catch(() => null) : null
  if (!res?.ok || !answer) {
    status.textContent = answer?.detail ?? answer?.title ?? 'The search did not answer; try again in a moment.'
    more.hidden = true
    return
  }
  if (!cursor) [body, shown] = [table(), 0]
  for (const m of answer.matches as Match[]) {
    const row = body!.insertRow()
    cell(row, m.season)
    cell(row, m.row_name)
    cell(row, m.base_name)
    cell(row, m.variant + (m.confirmed ? '' : ' (unconfirmed)'))
    cell(row, m.status, true)
    cell(row, m.game_mode)
    cell(row, m.released_at ?? '—')
  }
  shown += answer.matches.length
  next = answer.next_cursor ?? null
  more.hidden = next === null
  status.textContent = shown === 0 ? 'No matches.' : `${shown} ${shown === 1 ? 'match' : 'matches'}${next ? ', more below' : ''}.`
  if (shown === 0) results.replaceChildren()
}

form.addEventListener('submit', (e) => {
  e.preventDefault()
  void ask(null)
})
more.addEventListener('click', () => void ask(next))

export {}
