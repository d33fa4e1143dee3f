// Nearby units: add one, edit each in place (saving marks it checked today), take it off the directory or back on.
import { EMAIL_INPUT_PATTERN } from '#server/formats.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { dayWords, UNIT_TYPE_WORDS } from '#server/words.ts'
import { api, byId, h, onSubmit, signedInFor, type Route, showStatus, showOutcome, bodyOrShowError } from '../admin.ts'

type Nearby = AnswerOf<Route<'GET /api/admin/nearby'>>['nearby'][number]
const FIELDS = [
  ['name', 'Name', { required: true, maxlength: '200' }],
  ['unit_number', 'Unit number', { maxlength: '20', inputmode: 'numeric' }],
  ['town', 'Town', { maxlength: '100' }],
  ['meeting_place', 'Meeting place', { maxlength: '200' }],
  ['website', 'Website', { type: 'url', maxlength: '500' }],
  ['contact_email', 'Contact email', { type: 'email', maxlength: '254', pattern: EMAIL_INPUT_PATTERN }],
  ['notes', 'Notes for families', { maxlength: '500' }],
] as const

await signedInFor('/admin/nearby/')

/** A form's fields, trimmed; blank ones become null (cleared) or, with `omitBlank`, are left out. */
function fieldsOf(data: FormData, omitBlank = false): Record<string, string | null> {
  const entries = [...data].map(([k, v]) => [k, String(v).trim() || null] as const)
  return Object.fromEntries(omitBlank ? entries.filter(([, v]) => v !== null) : entries)
}

function card(n: Nearby): HTMLFormElement {
  const id = `nearby-${n.id}`
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const state = n.active ? 'listed' : 'not listed'
  const checked = n.verified_at ? `details checked ${dayWords(n.verified_at, { year: true })}` : 'never checked'
  const form = h(
    'form',
    { class: 'stack card', id, 'aria-label': n.name, 'data-nearby': String(n.id) },
    h('p', {}, h('span', { class: `badge ${n.active ? 'active' : 'revoked'}` }, state), ` ${UNIT_TYPE_WORDS[n.unit_type]} · ${checked}`),
    problem,
    ...FIELDS.map(([name, label, attrs]) => h('label', {}, label, h('input', { name, value: n[name] ?? '', ...attrs }))),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Save (marks it checked today)'),
      n.active
        ? h('button', { type: 'button', class: 'danger', onclick: () => deactivate(n) }, 'Take off the directory')
        : h('button', { type: 'button', class: 'secondary', onclick: () => reactivate(n) }, 'List it again'),
    ),
  ) as HTMLFormElement
  onSubmit(
    form,
    (data) => api('PATCH', `/api/admin/nearby/${n.id}`, fieldsOf(data) as BodyOf<Route<'PATCH /api/admin/nearby/{id}'>>),
    async () => {
      await load()
      showStatus(`Saved ${n.name}.`)
    },
    { problem, reset: false },
  )
  return form
}

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/nearby'))
  if (!body) return
  const list = byId('nearby')
  list.replaceChildren(...body.nearby.map((n) => h('li', {}, card(n))))
  if (!body.nearby.length) list.append(h('li', {}, 'No nearby units yet.'))
}

async function reactivate(n: Nearby) {
  showOutcome(await api('PATCH', `/api/admin/nearby/${n.id}`, { active: 1 }), `${n.name} is listed again.`)
  await load()
}

async function deactivate(n: Nearby) {
  if (!confirm(`Take ${n.name} off the public directory?`)) return
  showOutcome(await api('DELETE', `/api/admin/nearby/${n.id}`), `${n.name} is off the directory.`)
  await load()
}

onSubmit(
  byId<HTMLFormElement>('add'),
  (data) => api('POST', '/api/admin/nearby', fieldsOf(data, true) as BodyOf<Route<'POST /api/admin/nearby'>>),
  async (added) => {
    await load()
    showStatus(`Added ${added.name}.`)
  },
)
await load()
