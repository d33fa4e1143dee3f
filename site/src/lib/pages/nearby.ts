// Nearby units: add, edit in place (saving marks them verified today), deactivate and reactivate.
import type { DELETE as DeactivateNearby, PATCH as ChangeNearby } from '#routes/api/admin/nearby/[id].ts'
import type { GET as ListNearby, POST as AddNearby } from '#routes/api/admin/nearby/index.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { api, byId, detailOf, h, say } from '../admin.ts'

type Nearby = AnswerOf<typeof ListNearby>['nearby'][number]
const FIELDS = ['name', 'unit_number', 'town', 'meeting_place', 'website', 'contact_email'] as const

const status = byId('status')
const add = byId<HTMLFormElement>('add')

/** A form's fields, trimmed; blank ones become null (cleared) or, with `omitBlank`, are left out. */
function fieldsOf(form: HTMLFormElement, omitBlank = false): Record<string, string | null> {
  const entries = [...new FormData(form)].map(([k, v]) => [k, String(v).trim() || null] as const)
  return Object.fromEntries(omitBlank ? entries.filter(([, v]) => v !== null) : entries)
}

function card(n: Nearby): HTMLFormElement {
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const state = `${n.unit_type}, ${n.active ? 'active' : 'inactive'}`
  const form = h(
    'form',
    { class: 'stack card', 'aria-label': n.name, 'data-nearby': String(n.id) },
    h('p', {}, h('span', { class: `badge ${n.active ? 'active' : 'revoked'}` }, state), ` checked ${n.verified_at ?? 'never'}`),
    problem,
    ...FIELDS.map((f) => h('label', {}, f.replace('_', ' '), h('input', { name: f, value: n[f] ?? '' }))),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Save (marks checked today)'),
      n.active
        ? h('button', { type: 'button', class: 'danger', onclick: () => deactivate(n) }, 'Deactivate')
        : h('button', { type: 'button', class: 'secondary', onclick: () => change(n, { active: 1 }, problem) }, 'Reactivate'),
    ),
  ) as HTMLFormElement
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void change(n, fieldsOf(form) as BodyOf<typeof ChangeNearby>, problem)
  })
  return form
}

async function load() {
  const res = await api<typeof ListNearby>('GET', '/api/admin/nearby')
  if (!res.ok) return say(status, detailOf(res), 'error')
  byId('nearby').replaceChildren(...res.body.nearby.map(card))
}

async function change(n: Nearby, body: BodyOf<typeof ChangeNearby>, problem: HTMLElement) {
  const res = await api<typeof ChangeNearby>('PATCH', `/api/admin/nearby/${n.id}`, body)
  if (!res.ok) return say(problem, detailOf(res), 'error')
  say(status, `Saved ${n.name}.`)
  await load()
}

async function deactivate(n: Nearby) {
  if (!confirm(`Take ${n.name} off the public directory?`)) return
  const res = await api<typeof DeactivateNearby>('DELETE', `/api/admin/nearby/${n.id}`)
  say(status, res.ok ? `${n.name} is inactive.` : detailOf(res), res.ok ? 'notice' : 'error')
  await load()
}

add.addEventListener('submit', async (event) => {
  event.preventDefault()
  const res = await api<typeof AddNearby>('POST', '/api/admin/nearby', fieldsOf(add, true) as BodyOf<typeof AddNearby>)
  if (!res.ok) return say(byId('add-error'), detailOf(res), 'error')
  add.reset()
  say(status, `Added ${res.body.name}.`)
  await load()
})
await load()
