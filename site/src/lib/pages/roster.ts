// Roster: per unit, households with scouts and a one-click checklist grid; import from a lead; CSV export.
import type { PATCH as ChangeHousehold } from '#routes/api/admin/roster/households/[id]/index.ts'
import type { POST as AddScout } from '#routes/api/admin/roster/households/[id]/scouts.ts'
import type { POST as AddHousehold } from '#routes/api/admin/roster/households/index.ts'
import type { GET as ListRoster } from '#routes/api/admin/roster/index.ts'
import type { PUT as SetCheck } from '#routes/api/admin/roster/scouts/[id]/checks/[item].ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { answered, api, byId, h, onSubmit, report, tell, text } from '../admin.ts'

type Roster = AnswerOf<typeof ListRoster>
type Household = Roster['households'][number]
type Scout = Household['scouts'][number]

const unitSelect = byId<HTMLSelectElement>('unit')
let units: Roster['units'] = []

async function load() {
  const unit = unitSelect.value ? `?unit=${unitSelect.value}` : ''
  byId<HTMLAnchorElement>('csv').href = `/api/admin/roster/export${unit}`
  const body = answered(await api<typeof ListRoster>('GET', `/api/admin/roster${unit}`))
  if (!body) return
  units = body.units
  byId('year').textContent = `Checklist for program year ${body.year.label}.`
  byId('dens').replaceChildren(...body.dens.map((d) => h('option', { value: d })))
  byId('households').replaceChildren(...body.households.map(householdCard))
}

function check(scout: Scout, item: 'dues' | 'health_form', label: string) {
  const box = h('input', {
    type: 'checkbox',
    checked: scout.checks[item].done,
    'aria-label': `${label} for ${scout.first_name}`,
  }) as HTMLInputElement
  box.addEventListener('change', async () => {
    const res = await api<typeof SetCheck>('PUT', `/api/admin/roster/scouts/${scout.id}/checks/${item}`, { done: box.checked })
    if (!report(res, `${label} for ${scout.first_name}: ${box.checked ? 'done' : 'not done'}.`)) box.checked = !box.checked
  })
  return h('td', {}, h('label', { class: 'inline-check' }, box, label))
}

function addScoutForm(hh: Household): HTMLFormElement {
  const form = h(
    'form',
    { class: 'row', 'aria-label': `Add a scout to ${hh.parent_name}` },
    h('label', {}, 'First name', h('input', { name: 'first_name', required: true, maxlength: '100' })),
    h('label', {}, 'Unit', h('select', { name: 'unit' }, ...units.map((u) => h('option', { value: String(u.id) }, u.slug)))),
    h('label', {}, 'Den', h('input', { name: 'den', list: 'dens', maxlength: '50' })),
    h('button', { type: 'submit', class: 'secondary' }, 'Add scout'),
  ) as HTMLFormElement
  onSubmit(
    form,
    (data) =>
      api<typeof AddScout>('POST', `/api/admin/roster/households/${hh.id}/scouts`, {
        first_name: text(data, 'first_name'),
        unit_id: Number(data.get('unit')),
        den: text(data, 'den') || null,
      }),
    async (scout) => {
      tell(`Added ${scout.first_name}.`)
      await load()
    },
    { problem: byId('status') },
  )
  return form
}

function householdCard(hh: Household): HTMLElement {
  const head = h('tr', {}, ...['Scout', 'Den', 'Dues', 'Health form'].map((c) => h('th', { scope: 'col' }, c)))
  const rows = hh.scouts.map((sc) =>
    h(
      'tr',
      {},
      h('td', {}, `${sc.first_name} ${sc.last_name ?? ''}`),
      h('td', {}, sc.den ?? '—'),
      check(sc, 'dues', 'Dues'),
      check(sc, 'health_form', 'Health form'),
    ),
  )
  return h(
    'section',
    { class: 'card', 'data-household': String(hh.id) },
    h('h2', {}, `${hh.parent_name}${hh.active ? '' : ' (inactive)'}`),
    h('p', {}, [hh.email, hh.phone, hh.second_parent].filter(Boolean).join(' · ')),
    h(
      'div',
      { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `Scouts of ${hh.parent_name}` },
      h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)),
    ),
    addScoutForm(hh),
    h(
      'button',
      { type: 'button', class: 'secondary', onclick: () => setActive(hh, !hh.active) },
      hh.active ? 'Deactivate household' : 'Reactivate household',
    ),
  )
}

async function setActive(hh: Household, active: boolean) {
  report(
    await api<typeof ChangeHousehold>('PATCH', `/api/admin/roster/households/${hh.id}`, { active }),
    `${hh.parent_name} is ${active ? 'active' : 'inactive'}.`,
  )
  await load()
}

onSubmit(
  byId<HTMLFormElement>('add'),
  (data) => {
    const filled = Object.fromEntries([...data].map(([k, v]) => [k, String(v).trim()]).filter(([, v]) => v))
    const body = (filled.lead_id ? { lead_id: Number(filled.lead_id) } : filled) as BodyOf<typeof AddHousehold>
    return api<typeof AddHousehold>('POST', '/api/admin/roster/households', body)
  },
  async (household) => {
    tell(`Added the household of ${household.parent_name}.`)
    await load()
  },
)
unitSelect.addEventListener('change', load)
await load()
