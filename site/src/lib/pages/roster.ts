// Roster: households with their scouts and this year's one-tap checklist; one dialog adds or edits a household
// (and links family accounts), one adds or edits a scout; CSV export.
import type { GET as ListPeople } from '#routes/api/admin/people/index.ts'
import type { PATCH as ChangeHousehold } from '#routes/api/admin/roster/households/[id]/index.ts'
import type { PUT as LinkAccounts } from '#routes/api/admin/roster/households/[id]/people.ts'
import type { POST as AddScout } from '#routes/api/admin/roster/households/[id]/scouts.ts'
import type { POST as AddHousehold } from '#routes/api/admin/roster/households/index.ts'
import type { GET as ListRoster } from '#routes/api/admin/roster/index.ts'
import type { PATCH as ChangeScout } from '#routes/api/admin/roster/scouts/[id]/index.ts'
import type { PUT as SetCheck } from '#routes/api/admin/roster/scouts/[id]/checks/[item].ts'
import { healthFormOn } from '#server/roster/health-form.ts'
import type { AnswerOf } from '#server/routes.ts'
import { dayWords } from '#server/words.ts'
import { answered, api, type ApiResult, byId, h, holds, onSubmit, report, signedInFor, tell, text } from '../admin.ts'

type Roster = AnswerOf<typeof ListRoster>
type Household = Roster['households'][number]
type Scout = Household['scouts'][number]

const me = await signedInFor('roster:write')
const canLink = holds(me, 'people:invite_leader')
const unitSelect = byId<HTMLSelectElement>('unit')
const householdDialog = byId<HTMLDialogElement>('household-dialog')
const householdForm = byId<HTMLFormElement>('household')
const scoutDialog = byId<HTMLDialogElement>('scout-dialog')
const scoutForm = byId<HTMLFormElement>('scout')
let units: Roster['units'] = []
let accounts: { id: number; email: string }[] | null = null
let editing: Household | null = null
let scoutOf: { household: Household; scout: Scout | null } | null = null
let scrolled = false

const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement
const orNull = (data: FormData, name: string) => text(data, name) || null

async function load() {
  const unit = unitSelect.value ? `?unit=${unitSelect.value}` : ''
  byId<HTMLAnchorElement>('csv').href = `/api/admin/roster/export${unit}`
  const body = answered(await api<typeof ListRoster>('GET', `/api/admin/roster${unit}`))
  if (!body) return
  units = body.units
  byId('year').textContent = `Checklist for program year ${body.year.label}.`
  byId('dens').replaceChildren(...body.dens.map((d) => h('option', { value: d })))
  const list = byId('households')
  list.replaceChildren(...body.households.map(householdCard))
  if (!body.households.length) list.append(h('p', {}, 'No households yet: add one, or use "Add to roster" on a claimed lead.'))
  if (!scrolled && location.hash) document.querySelector(location.hash)?.scrollIntoView()
  scrolled = true
}

function check(scout: Scout, item: 'dues', label: string) {
  const box = h('input', {
    type: 'checkbox',
    checked: scout.checks[item].done,
    'aria-label': `${label} for ${scout.first_name}`,
  }) as HTMLInputElement
  box.addEventListener('change', async () => {
    const res = await api<typeof SetCheck>('PUT', `/api/admin/roster/scouts/${scout.id}/checks/${item}`, { done: box.checked })
    if (!report(res, `${label} for ${scout.first_name}: ${box.checked ? 'done' : 'not done'}.`)) box.checked = !box.checked
  })
  return h('td', {}, h('label', { class: 'tap' }, box))
}

/** How a health form stands, in words: current until, ran out on, or ticked before dates were kept. */
function healthFormWords(form: Scout['checks']['health_form']) {
  if (form.expires_on) return `${form.current ? 'Current until' : 'Ran out on'} ${dayWords(form.expires_on, { year: true })}`
  return form.done ? 'Received (no date given)' : 'Not yet'
}

/** The date on the scout's health form: setting it records the form, clearing it unticks this year's. */
function healthFormCell(scout: Scout) {
  const form = scout.checks.health_form
  const words = h('span', { class: 'muted' }, healthFormWords(form))
  const date = h('input', {
    type: 'date',
    value: form.form_date ?? '',
    max: new Date().toISOString().slice(0, 10),
    'aria-label': `Date on ${scout.first_name}’s health form`,
  }) as HTMLInputElement
  date.addEventListener('change', async () => {
    const body = date.value ? { done: true, form_date: date.value } : { done: false }
    const res = await api<typeof SetCheck>('PUT', `/api/admin/roster/scouts/${scout.id}/checks/health_form`, body)
    const done = date.value ? `dated ${dayWords(date.value, { year: true })}` : 'not handed in'
    if (!report(res, `Health form for ${scout.first_name}: ${done}.`)) date.value = form.form_date ?? ''
    else {
      Object.assign(form, { done: !!date.value }, healthFormOn(date.value || null, date.max))
      words.textContent = healthFormWords(form)
    }
  })
  return h('td', {}, date, h('br'), words)
}

function scoutRow(hh: Household, sc: Scout) {
  const about = [sc.unit_name, sc.den && `${sc.den} den`].filter(Boolean).join(' · ')
  return h(
    'tr',
    { 'data-scout': String(sc.id) },
    h(
      'th',
      { scope: 'row' },
      `${sc.first_name} ${sc.last_name ?? ''}`.trim(),
      h('br'),
      h('span', { class: 'muted' }, about),
      ' ',
      h('button', { type: 'button', class: 'link', 'aria-label': `Edit ${sc.first_name}`, onclick: () => openScout(hh, sc) }, 'Edit'),
    ),
    check(sc, 'dues', 'Dues'),
    healthFormCell(sc),
  )
}

function householdCard(hh: Household): HTMLElement {
  const contact = [
    hh.email && h('a', { href: `mailto:${hh.email}` }, hh.email),
    hh.phone && h('a', { href: `tel:${hh.phone.replace(/[^\d+]/g, '')}` }, hh.phone),
    hh.second_parent && `with ${hh.second_parent}`,
  ].filter((c): c is HTMLElement | string => !!c)
  const linked = hh.people.length ? `Family account: ${hh.people.map((p) => p.name ?? p.email).join(', ')}` : 'No family account linked yet'
  const head = h('tr', {}, ...['Scout', 'Dues', 'Health form'].map((c) => h('th', { scope: 'col' }, c)))
  return h(
    'section',
    { class: 'card household', id: `household-${hh.id}`, 'data-household': String(hh.id), 'aria-labelledby': `household-${hh.id}-name` },
    h('h2', { id: `household-${hh.id}-name` }, `${hh.parent_name}${hh.active ? '' : ' (inactive)'}`),
    contact.length > 0 && h('p', {}, ...contact.flatMap((c, i) => (i ? [' · ', c] : [c]))),
    h('p', { class: 'muted' }, linked),
    hh.scouts.length
      ? h('table', { class: 'checklist' }, h('thead', {}, head), h('tbody', {}, ...hh.scouts.map((sc) => scoutRow(hh, sc))))
      : h('p', {}, 'No scouts yet.'),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', onclick: () => openScout(hh, null) }, 'Add a scout'),
      h('button', { type: 'button', class: 'secondary', onclick: () => openHousehold(hh) }, 'Edit household'),
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => setActive(hh, !hh.active) },
        hh.active ? 'Deactivate' : 'Reactivate',
      ),
    ),
  )
}

async function setActive(hh: Household, active: boolean) {
  if (!active && !confirm(`Deactivate ${hh.parent_name}'s household? It leaves the checklist and the family page.`)) return
  report(
    await api<typeof ChangeHousehold>('PATCH', `/api/admin/roster/households/${hh.id}`, { active }),
    `${hh.parent_name} is ${active ? 'active' : 'inactive'}.`,
  )
  await load()
}

async function openHousehold(hh: Household | null) {
  editing = hh
  householdForm.reset()
  for (const name of ['parent_name', 'email', 'phone', 'second_parent', 'notes'] as const)
    field(householdForm, name).value = hh?.[name] ?? ''
  byId('household-title').textContent = hh ? `Edit ${hh.parent_name}'s household` : 'Add a household'
  const linking = !!hh && canLink
  byId('household-accounts').hidden = !linking
  if (linking) {
    byId('linked').replaceChildren(
      ...hh.people.map((p) =>
        h(
          'label',
          { class: 'inline-check' },
          h('input', { type: 'checkbox', name: 'keep', value: String(p.id), checked: true }),
          p.name ? `${p.name} (${p.email})` : p.email,
        ),
      ),
    )
    accounts ??= (answered(await api<typeof ListPeople>('GET', '/api/admin/people'))?.people ?? []).filter((p) => !p.disabled)
    byId('accounts').replaceChildren(...accounts.map((p) => h('option', { value: p.email })))
  }
  householdDialog.showModal()
}

/** The accounts the form links: those kept, and the one named by email; a refusal when that email has no account. */
function linkedIds(data: FormData): number[] | ApiResult<never> {
  const ids = data.getAll('keep').map(Number)
  const email = text(data, 'link_email').toLowerCase()
  if (!email) return ids
  const found = accounts?.find((a) => a.email === email)
  if (!found)
    return {
      ok: false,
      status: 422,
      body: { detail: 'link_email: is not the email of an account here; invite them on the People page first' },
    }
  return [...new Set([...ids, found.id])]
}

onSubmit(
  householdForm,
  async (data) => {
    const fields = {
      parent_name: text(data, 'parent_name'),
      email: orNull(data, 'email'),
      phone: orNull(data, 'phone'),
      second_parent: orNull(data, 'second_parent'),
      notes: orNull(data, 'notes'),
    }
    if (!editing) return api<typeof AddHousehold>('POST', '/api/admin/roster/households', fields)
    const ids = canLink ? linkedIds(data) : null
    if (ids && !Array.isArray(ids)) return ids
    const saved = await api<typeof ChangeHousehold>('PATCH', `/api/admin/roster/households/${editing.id}`, fields)
    const before = editing.people.map((p) => p.id).sort()
    if (!saved.ok || !ids || JSON.stringify([...ids].sort()) === JSON.stringify(before)) return saved
    return api<typeof LinkAccounts>('PUT', `/api/admin/roster/households/${editing.id}/people`, { person_ids: ids })
  },
  async (household) => {
    householdDialog.close()
    tell(editing ? `Saved ${household.parent_name}'s household.` : `Added ${household.parent_name}'s household: now add their scouts.`)
    await load()
  },
)

function openScout(household: Household, scout: Scout | null) {
  scoutOf = { household, scout }
  scoutForm.reset()
  const unitChoice = byId<HTMLSelectElement>('scout-unit')
  // A unit leader keeps scouts only in the units they lead; the server refuses the others (403).
  const mine = units.filter((u) => me.person?.global_role || me.person?.units.some((m) => m.unit_id === u.id && m.role === 'leader'))
  unitChoice.replaceChildren(...mine.map((u) => h('option', { value: String(u.id) }, u.name)))
  const preferred = scout?.unit_id ?? mine.find((u) => u.slug === unitSelect.value)?.id ?? household.scouts[0]?.unit_id
  if (preferred) unitChoice.value = String(preferred)
  field(scoutForm, 'first_name').value = scout?.first_name ?? ''
  field(scoutForm, 'last_name').value = scout?.last_name ?? ''
  field(scoutForm, 'den').value = scout?.den ?? ''
  byId('scout-title').textContent = scout ? `Edit ${scout.first_name}` : `Add a scout to ${household.parent_name}'s household`
  scoutDialog.showModal()
}

onSubmit(
  scoutForm,
  (data) => {
    const fields = {
      first_name: text(data, 'first_name'),
      last_name: orNull(data, 'last_name'),
      unit_id: Number(data.get('unit_id')),
      den: orNull(data, 'den'),
    }
    const { household, scout } = scoutOf!
    return scout
      ? api<typeof ChangeScout>('PATCH', `/api/admin/roster/scouts/${scout.id}`, fields)
      : api<typeof AddScout>('POST', `/api/admin/roster/households/${household.id}/scouts`, fields)
  },
  async (saved) => {
    scoutDialog.close()
    tell(`${scoutOf?.scout ? 'Saved' : 'Added'} ${saved.first_name}.`)
    await load()
  },
)

for (const close of document.querySelectorAll<HTMLButtonElement>('dialog [data-close]'))
  close.addEventListener('click', () => close.closest('dialog')!.close())
byId('new-household').addEventListener('click', () => openHousehold(null))
unitSelect.addEventListener('change', load)
await load()
