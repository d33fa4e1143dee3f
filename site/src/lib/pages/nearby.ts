// Nearby units: add, edit in place (saving marks them verified today), deactivate and reactivate.
import type { DELETE as DeactivateNearby, PATCH as ChangeNearby } from '#routes/api/admin/nearby/[id].ts'
import type { GET as ListNearby, POST as AddNearby } from '#routes/api/admin/nearby/index.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { answered, api, byId, detailOf, h, onSubmit, report, say, tell } from '../admin.ts'

type Nearby = AnswerOf<typeof ListNearby>['nearby'][number]
const FIELDS = ['name', 'unit_number', 'town', 'meeting_place', 'website', 'contact_email'] as const

/** A form's fields, trimmed; blank ones become null (cleared) or, with `omitBlank`, are left out. */
function fieldsOf(data: FormData, omitBlank = false): Record<string, string | null> {
  const entries = [...data].map(([k, v]) => [k, String(v).trim() || null] as const)
  return Object.fromEntries(omitBlank ? entries.filter(([, v]) => v !== null) : entries)
}

function card(n: Nearby): HTMLFormElement {
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const state = `${n.unit_type}, ${n.active ? 'active' : 'inactive'}`
  const reactivate = async () => {
    const res = await api<typeof ChangeNearby>('PATCH', `/api/admin/nearby/${n.id}`, { active: 1 })
    if (!res.ok) return say(problem, detailOf(res), 'error')
    tell(`Saved ${n.name}.`)
    await load()
  }
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
        : h('button', { type: 'button', class: 'secondary', onclick: reactivate }, 'Reactivate'),
    ),
  ) as HTMLFormElement
  onSubmit(
    form,
    (data) => api<typeof ChangeNearby>('PATCH', `/api/admin/nearby/${n.id}`, fieldsOf(data) as BodyOf<typeof ChangeNearby>),
    async () => {
      tell(`Saved ${n.name}.`)
      await load()
    },
    { problem, reset: false },
  )
  return form
}

async function load() {
  const body = answered(await api<typeof ListNearby>('GET', '/api/admin/nearby'))
  if (body) byId('nearby').replaceChildren(...body.nearby.map(card))
}

async function deactivate(n: Nearby) {
  if (!confirm(`Take ${n.name} off the public directory?`)) return
  report(await api<typeof DeactivateNearby>('DELETE', `/api/admin/nearby/${n.id}`), `${n.name} is inactive.`)
  await load()
}

onSubmit(
  byId<HTMLFormElement>('add'),
  (data) => api<typeof AddNearby>('POST', '/api/admin/nearby', fieldsOf(data, true) as BodyOf<typeof AddNearby>),
  async (added) => {
    tell(`Added ${added.name}.`)
    await load()
  },
)
await load()
