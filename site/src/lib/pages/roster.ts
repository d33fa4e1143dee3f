// Roster: search and filters kept in the address (a leader's own dens one tap away), the counts they find, and a
// short card per household that opens its dialog: the household's fields, its scouts with this year's one-tap
// checklist, its family accounts and open invites ("Invite a parent"). One dialog adds or edits a scout (member ID
// included), one invites a parent; CSV export of what is shown.
import type { AnswerOf } from '#server/routes.ts'
import { denWords, goesBy, plural } from '#server/words.ts'
import {
  api,
  type ApiResult,
  type Route,
  byId,
  formParams,
  h,
  holds,
  leadsUnit,
  onSubmit,
  signedInFor,
  text,
  when,
  showStatus,
  showError,
  bodyOrShowError,
} from '../admin.ts'
import { badges, duesBox, healthFormDate, statusHere } from '../roster-checks.ts'

type Roster = AnswerOf<Route<'GET /api/admin/roster'>>
type Listed = Roster['households'][number]
type Household = AnswerOf<Route<'GET /api/admin/roster/households/{id}'>>
type Scout = Household['scouts'][number]
type OpenInvite = Listed['invites'][number]

const me = await signedInFor('/admin/roster/')
const canLink = holds(me, 'people:invite_leader')
const filters = byId<HTMLFormElement>('filters')
const search = byId<HTMLInputElement>('q')
const unitSelect = byId<HTMLSelectElement>('unit')
const denSelect = byId<HTMLSelectElement>('den')
const moreFilters = byId<HTMLDetailsElement>('more-filters')
const householdDialog = byId<HTMLDialogElement>('household-dialog')
const householdForm = byId<HTMLFormElement>('household')
const scoutDialog = byId<HTMLDialogElement>('scout-dialog')
const scoutForm = byId<HTMLFormElement>('scout')
const inviteDialog = byId<HTMLDialogElement>('invite-dialog')
const inviteForm = byId<HTMLFormElement>('invite')
let roster: Roster | null = null
let accounts: { id: number; email: string }[] | null = null
/** The household the dialog shows (null while adding one), with its open invites and the links made this time. */
let editing: { household: Household; invites: OpenInvite[]; links: Map<number, string> } | null = null
let addingHousehold = false
let scoutOf: { household: Household; scout: Scout | null } | null = null
let loads = 0
let openedFromHash = false

const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement
const orNull = (data: FormData, name: string) => text(data, name) || null

/** Where the person is looking: the open household dialog's status line, or the page's. */

// ——— Filters, kept in the address ———

function fromAddress() {
  const params = new URLSearchParams(location.search)
  search.value = params.get('q') ?? ''
  unitSelect.value = params.get('unit') ?? ''
  ensureDenOption(params.get('den') ?? '')
  denSelect.value = params.get('den') ?? ''
  field(filters, 'dues').checked = params.get('dues') === 'unpaid'
  field(filters, 'health').checked = params.get('health') === 'missing'
}

/** The filters as query parameters, blank ones left out. */
const chosen = () => formParams(filters)

/** Puts the filters in the address (a new history entry, or in place while typing) and reads the roster again. */
function apply(mode: 'push' | 'replace') {
  const query = chosen().toString()
  const address = `${location.pathname}${query ? `?${query}` : ''}`
  if (address !== location.pathname + location.search) history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', address)
  void load()
}

function ensureDenOption(den: string) {
  if (den && ![...denSelect.options].some((o) => o.value === den)) denSelect.append(h('option', { value: den }, den))
}

/** The den choices: each den and patrol in use, by unit (only the chosen unit's when one is chosen). */
function denChoices(body: Roster) {
  const keep = denSelect.value
  const unit = unitSelect.value
  const groups = body.units
    .filter((u) => !unit || u.slug === unit || String(u.id) === unit)
    .map((u) => {
      const dens = body.den_units.filter((d) => d.unit_id === u.id)
      return (
        dens.length > 0 &&
        h(
          'optgroup',
          { label: u.slug === 'troop' ? `${u.name}: patrols` : `${u.name}: dens` },
          ...dens.map((d) => h('option', { value: d.den }, denWords(d.den, d.unit_slug))),
        )
      )
    })
  denSelect.replaceChildren(
    h('option', { value: '' }, unit === 'troop' ? 'Every patrol' : unit === 'pack' ? 'Every den' : 'Every den and patrol'),
    ...groups.filter((g): g is HTMLElement => !!g),
  )
  ensureDenOption(keep)
  denSelect.value = keep
  byId('den-label').textContent = unit === 'troop' ? 'Patrol' : unit === 'pack' ? 'Den' : 'Den or patrol'
}

/** One tap to a leader's own den: the dens and patrols of the units they lead (the one their title names, if any). */
function myDens(body: Roster) {
  const led = me.led_units.units
  const mine = body.den_units.filter((d) => led.some((u) => u.unit_id === d.unit_id))
  const titles = led.map((u) => (u.title ?? '').toLowerCase()).join(' ')
  const named = mine.filter((d) => new RegExp(`\\b${d.den.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(titles))
  const shown = named.length ? named : mine
  const group = byId('my-dens')
  group.hidden = !shown.length
  const kinds = new Set(shown.map((d) => d.unit_slug))
  byId('my-dens-label').textContent = kinds.has('troop') ? (kinds.has('pack') ? 'Your dens and patrols:' : 'Your patrols:') : 'Your dens:'
  group.replaceChildren(
    byId('my-dens-label'),
    ...shown.map((d) => {
      const on = denSelect.value === d.den
      return h(
        'button',
        {
          type: 'button',
          'aria-pressed': on ? 'true' : 'false',
          onclick: () => {
            ensureDenOption(d.den)
            denSelect.value = on ? '' : d.den
            if (!on && unitSelect.value && unitSelect.value !== d.unit_slug) unitSelect.value = ''
            apply('push')
          },
        },
        denWords(d.den, d.unit_slug),
      )
    }),
  )
}

function countsWords(c: Roster['counts']) {
  return [
    plural(c.households, 'household'),
    plural(c.scouts, 'scout'),
    `${c.dues_unpaid} dues unpaid`,
    `${plural(c.health_missing, 'health form')} missing or expiring`,
  ].join(' · ')
}

// ——— The list ———

async function load() {
  const query = chosen()
  const mine = ++loads
  byId<HTMLAnchorElement>('csv').href = `/api/admin/roster/export${query.size ? `?${query}` : ''}`
  const body = bodyOrShowError(await api('GET', query.size ? `/api/admin/roster?${query}` : '/api/admin/roster'))
  if (!body || mine !== loads) return
  roster = body
  denChoices(body)
  myDens(body)
  const on = [query.get('unit'), query.get('den'), query.get('dues') && 'dues', query.get('health') && 'health'].filter(Boolean).length
  byId('filters-on').textContent = on ? `(${on} on)` : ''
  if (on) moreFilters.open = true
  byId('counts').textContent = countsWords(body.counts)
  byId('year').textContent = `Dues and health forms of program year ${body.year.label}.`
  // Shown with the first list, below it: an empty page's last row would otherwise be pushed down as the cards arrive.
  byId('roster-actions').hidden = false
  byId('dens').replaceChildren(...body.dens.map((d) => h('option', { value: d })))
  const filtered = query.size > 0
  byId('households').replaceChildren(
    ...(body.households.length
      ? body.households.map(householdCard)
      : [
          h(
            'li',
            { class: 'none' },
            filtered ? 'No households match. ' : 'No households yet: add one, or use "Add to roster" on a claimed lead.',
            filtered &&
              h(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  onclick: () => {
                    filters.reset()
                    apply('push')
                  },
                },
                'Clear the search and filters',
              ),
          ),
        ]),
  )
  if (!openedFromHash) {
    openedFromHash = true
    const id = /^#household-(\d+)$/.exec(location.hash)?.[1]
    const card = id && document.getElementById(`household-${id}`)
    if (card) {
      card.scrollIntoView()
      await openHousehold(Number(id))
    }
  }
}

const aboutScout = (sc: Scout) => [sc.unit_name, sc.den && denWords(sc.den, sc.unit_slug)].filter(Boolean).join(' · ')

function householdCard(hh: Listed): HTMLElement {
  return h(
    'li',
    { class: 'card household', id: `household-${hh.id}`, 'data-household': String(hh.id) },
    h(
      'h2',
      {},
      h('button', { type: 'button', class: 'open', 'aria-haspopup': 'dialog', onclick: () => openHousehold(hh.id) }, hh.parent_name),
      !hh.active && ' (inactive)',
    ),
    hh.scouts.length
      ? h(
          'ul',
          { class: 'plain scouts' },
          ...hh.scouts.map((sc) =>
            h(
              'li',
              { 'data-scout': String(sc.id) },
              h('strong', {}, goesBy(sc)),
              sc.den ? ` · ${denWords(sc.den, sc.unit_slug)}` : ` · ${sc.unit_name}`,
              badges(sc, hh.active),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No scouts yet'),
    ...hh.invites.map((i) => h('p', { class: 'muted' }, `Invited ${i.email} — waiting`)),
  )
}

// ——— The household dialog ———

/** Opens a household's dialog, with all its scouts (the list may show only those that match the filters). */
async function openHousehold(id: number) {
  const household = bodyOrShowError(await api('GET', `/api/admin/roster/households/${id}`))
  if (!household) return
  const listed = roster?.households.find((l) => l.id === id)
  editing = { household, invites: listed?.invites ?? [], links: new Map() }
  addingHousehold = false
  householdForm.reset()
  byId('household-said').hidden = true
  byId('household-error').hidden = true
  for (const name of [
    'parent_name',
    'sort_name',
    'email',
    'phone',
    'second_parent',
    'second_email',
    'emergency_name',
    'emergency_phone',
    'notes',
  ] as const)
    field(householdForm, name).value = household[name] ?? ''
  byId('household-title').textContent = `Edit ${household.parent_name}'s household${household.active ? '' : ' (inactive)'}`
  const setActive = byId<HTMLButtonElement>('set-active')
  setActive.hidden = false
  setActive.textContent = household.active ? 'Deactivate' : 'Reactivate'
  renderContact(household)
  renderScouts()
  await renderAccounts()
  if (!householdDialog.open) householdDialog.showModal()
}

function openNewHousehold() {
  editing = null
  addingHousehold = true
  householdForm.reset()
  byId('household-said').hidden = true
  byId('household-error').hidden = true
  byId('household-title').textContent = 'Add a household'
  byId('household-contact').replaceChildren()
  byId('household-scouts').hidden = true
  byId('household-accounts').hidden = true
  byId('set-active').hidden = true
  householdDialog.showModal()
}

function renderContact(hh: Household) {
  const contact = [
    hh.email && h('a', { href: `mailto:${hh.email}` }, hh.email),
    hh.phone && h('a', { href: `tel:${hh.phone.replace(/[^\d+]/g, '')}` }, hh.phone),
    hh.emergency_name && `emergency: ${hh.emergency_name}${hh.emergency_phone ? ` ${hh.emergency_phone}` : ''}`,
  ].filter((c): c is HTMLElement | string => !!c)
  byId('household-contact').replaceChildren(...contact.flatMap((c, i) => (i ? [' · ', c] : [c])))
}

function renderScouts() {
  const hh = editing!.household
  byId('household-scouts').hidden = false
  byId('household-scouts-title').textContent = `Scouts and the ${roster?.year.label ?? 'this year'} checklist`
  byId('scout-list').replaceChildren(...(hh.scouts.length ? hh.scouts.map((sc) => scoutItem(hh, sc)) : [h('li', {}, 'No scouts yet.')]))
}

/** A scout in the household dialog: who, where, photo consent, and this year's dues box and health-form date. */
function scoutItem(hh: Household, sc: Scout) {
  return h(
    'li',
    { 'data-scout': String(sc.id) },
    h(
      'p',
      {},
      h('strong', {}, goesBy(sc)),
      ' ',
      h('button', { type: 'button', class: 'link', 'aria-label': `Edit ${sc.first_name}`, onclick: () => openScout(hh, sc) }, 'Edit'),
    ),
    h(
      'p',
      { class: 'muted' },
      aboutScout(sc),
      h('span', { class: 'badges' }, h('span', { class: 'badge' }, sc.photo_consent ? 'photos OK' : 'no photos')),
    ),
    h('div', { class: 'row' }, duesBox(sc), ...healthFormDate(sc)),
  )
}

/** The family accounts linked to the household, its open invites, and the box to link another account. */
async function renderAccounts() {
  const section = byId('household-accounts')
  section.hidden = !canLink || !editing
  if (section.hidden) return
  const { household, invites, links } = editing!
  byId('linked').replaceChildren(
    ...(household.people.length
      ? household.people.map((p) =>
          h(
            'label',
            { class: 'inline-check' },
            h('input', { type: 'checkbox', name: 'keep', value: String(p.id), checked: true }),
            p.name ? `${p.name} (${p.email})` : p.email,
          ),
        )
      : [h('p', { class: 'muted' }, 'No family account linked yet.')]),
  )
  byId('household-invites').replaceChildren(
    ...invites.map((i) => {
      const link = links.get(i.id)
      return h(
        'li',
        { 'data-invite': String(i.id) },
        h('span', {}, `Invited ${i.email} — waiting (the link works until ${when(i.expires_at)})`),
        link && h('code', { class: 'secret' }, link),
        link &&
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: async () => {
                await navigator.clipboard?.writeText(link)
                showStatus('Link copied.', statusHere())
              },
            },
            'Copy link',
          ),
        h('button', { type: 'button', class: 'link', 'aria-label': `Revoke the invite of ${i.email}`, onclick: () => revoke(i) }, 'Revoke'),
      )
    }),
  )
  accounts ??= (bodyOrShowError(await api('GET', '/api/admin/people'))?.people ?? []).filter((p) => !p.disabled)
  byId('accounts').replaceChildren(...accounts.map((p) => h('option', { value: p.email })))
}

async function revoke(invite: OpenInvite) {
  const res = await api('DELETE', `/api/admin/people/invite/${invite.id}`)
  if (!res.ok) return showError(res.body.detail, statusHere())
  editing!.invites = editing!.invites.filter((i) => i.id !== invite.id)
  showStatus(`Revoked the invite of ${invite.email}.`, statusHere())
  await renderAccounts()
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
      body: { detail: 'link_email: is not the email of an account here; use "Invite a parent" to invite them' },
    }
  return [...new Set([...ids, found.id])]
}

onSubmit(
  householdForm,
  async (data) => {
    const fields = {
      parent_name: text(data, 'parent_name'),
      sort_name: orNull(data, 'sort_name'),
      email: orNull(data, 'email'),
      phone: orNull(data, 'phone'),
      second_parent: orNull(data, 'second_parent'),
      second_email: orNull(data, 'second_email'),
      emergency_name: orNull(data, 'emergency_name'),
      emergency_phone: orNull(data, 'emergency_phone'),
      notes: orNull(data, 'notes'),
    }
    if (!editing) return api('POST', '/api/admin/roster/households', fields)
    const ids = canLink ? linkedIds(data) : null
    if (ids && !Array.isArray(ids)) return ids
    const saved = await api('PATCH', `/api/admin/roster/households/${editing.household.id}`, fields)
    const before = editing.household.people.map((p) => p.id).sort()
    if (!saved.ok || !ids || JSON.stringify([...ids].sort()) === JSON.stringify(before)) return saved
    return api('PUT', `/api/admin/roster/households/${editing.household.id}/people`, { person_ids: ids })
  },
  async (household) => {
    if (addingHousehold) {
      // Straight on to its scouts: the dialog stays open on the new household.
      await load()
      await openHousehold(household.id)
      showStatus(`Added ${household.parent_name}'s household: now add their scouts.`, statusHere())
      return
    }
    householdDialog.close()
    showStatus(`Saved ${household.parent_name}'s household.`)
  },
)

byId('set-active').addEventListener('click', async () => {
  const hh = editing?.household
  if (!hh) return
  const active = !hh.active
  if (!active && !confirm(`Deactivate ${hh.parent_name}'s household? It leaves the checklist and the family page.`)) return
  const res = await api('PATCH', `/api/admin/roster/households/${hh.id}`, { active })
  if (!res.ok) return showError(res.body.detail, statusHere())
  householdDialog.close()
  showStatus(`${hh.parent_name} is ${active ? 'active' : 'inactive'}.`)
})

householdDialog.addEventListener('close', () => {
  // Read the list again: the cards, the counts, and what the filters find may have changed.
  editing = null
  void load()
})

// ——— The scout dialog ———

/** The units a caller keeps scouts in: those they lead (all for admins and owners); the server refuses others (403). */
const keptUnits = () => (roster?.units ?? []).filter((u) => leadsUnit(me, u.id))

function denLabel() {
  const unit = roster?.units.find((u) => String(u.id) === byId<HTMLSelectElement>('scout-unit').value)
  byId('scout-den-label').textContent = unit?.slug === 'troop' ? 'Patrol' : 'Den'
  const dens = roster?.den_units.filter((d) => d.unit_id === unit?.id).map((d) => d.den) ?? []
  byId('dens').replaceChildren(...dens.map((d) => h('option', { value: d })))
}

function openScout(household: Household, scout: Scout | null) {
  scoutOf = { household, scout }
  scoutForm.reset()
  byId('scout-error').hidden = true
  const unitChoice = byId<HTMLSelectElement>('scout-unit')
  const mine = keptUnits()
  unitChoice.replaceChildren(...mine.map((u) => h('option', { value: String(u.id) }, u.name)))
  const preferred = scout?.unit_id ?? mine.find((u) => u.slug === unitSelect.value)?.id ?? household.scouts[0]?.unit_id
  if (preferred) unitChoice.value = String(preferred)
  denLabel()
  field(scoutForm, 'first_name').value = scout?.first_name ?? ''
  field(scoutForm, 'last_name').value = scout?.last_name ?? ''
  field(scoutForm, 'den').value = scout?.den ?? ''
  field(scoutForm, 'org_member_id').value = scout?.org_member_id ?? ''
  const family = byId('scout-family')
  family.hidden = !scout
  if (scout)
    family.textContent = `Set by the family: ${scout.preferred_name ? `goes by ${scout.preferred_name}` : 'no other name'}; ${scout.photo_consent ? 'photos OK' : 'no photos'}.`
  byId('scout-title').textContent = scout ? `Edit ${scout.first_name}` : `Add a scout to ${household.parent_name}'s household`
  scoutDialog.showModal()
}

byId('scout-unit').addEventListener('change', denLabel)

onSubmit(
  scoutForm,
  (data) => {
    const fields = {
      first_name: text(data, 'first_name'),
      last_name: orNull(data, 'last_name'),
      unit_id: Number(data.get('unit_id')),
      den: orNull(data, 'den'),
      org_member_id: orNull(data, 'org_member_id'),
    }
    const { household, scout } = scoutOf!
    return scout
      ? api('PATCH', `/api/admin/roster/scouts/${scout.id}`, fields)
      : api('POST', `/api/admin/roster/households/${household.id}/scouts`, fields)
  },
  async (saved) => {
    scoutDialog.close()
    const words = `${scoutOf?.scout ? 'Saved' : 'Added'} ${saved.first_name}.`
    if (editing && householdDialog.open) {
      const fresh = bodyOrShowError(await api('GET', `/api/admin/roster/households/${editing.household.id}`))
      if (fresh) editing.household = fresh
      renderScouts()
    }
    showStatus(words, statusHere())
  },
)

// ——— Inviting a parent ———

function openInvite() {
  const hh = editing?.household
  if (!hh) return
  inviteForm.reset()
  byId('invite-error').hidden = true
  const linked = new Set(hh.people.map((p) => p.email))
  if (hh.email && !linked.has(hh.email)) field(inviteForm, 'email').value = hh.email
  byId('invite-about').textContent =
    `They get a link to make their account, which then sees ${hh.parent_name}'s household on its family page. It works once, for 14 days.`
  inviteDialog.showModal()
}

/** The roles a parent's invite grants: member of each unit of the household's scouts that the inviter may grant. */
function parentUnits(hh: Household) {
  const units = [...new Set(hh.scouts.map((sc) => sc.unit_id))]
  return units.filter((id) => leadsUnit(me, id)).map((unit_id) => ({ unit_id, role: 'member' as const }))
}

onSubmit(
  inviteForm,
  (data) =>
    api('POST', '/api/admin/people/invite', {
      email: text(data, 'email'),
      units: parentUnits(editing!.household),
      household_id: editing!.household.id,
      send_email: data.get('send_email') === 'on',
    }),
  async (invited) => {
    inviteDialog.close()
    if (!editing) return
    editing.invites = [
      ...editing.invites.filter((i) => i.email !== invited.email),
      {
        id: invited.id,
        email: invited.email,
        invited_by: me.person?.email ?? '',
        created_at: new Date().toISOString(),
        expires_at: invited.expires_at,
      },
    ]
    if (invited.url) editing.links.set(invited.id, invited.url)
    await renderAccounts()
    showStatus(
      `${invited.emailed ? `Mailed to ${invited.email}. ` : ''}Invite link for ${invited.email}: works once, for 14 days, and is not shown again.`,
      statusHere(),
    )
  },
)

// ——— Wiring ———

for (const close of document.querySelectorAll<HTMLButtonElement>('dialog [data-close]'))
  close.addEventListener('click', () => close.closest('dialog')!.close())
byId('new-household').addEventListener('click', openNewHousehold)
byId('invite-parent').addEventListener('click', openInvite)
byId('add-scout').addEventListener('click', () => editing && openScout(editing.household, null))
filters.addEventListener('submit', (event) => {
  event.preventDefault()
  apply('push')
})
let typing: ReturnType<typeof setTimeout> | undefined
search.addEventListener('input', () => {
  clearTimeout(typing)
  typing = setTimeout(() => apply('replace'), 250)
})
for (const control of [unitSelect, denSelect, field(filters, 'dues'), field(filters, 'health')])
  control.addEventListener('change', () => apply('push'))
addEventListener('popstate', () => {
  fromAddress()
  void load()
})
fromAddress()
moreFilters.open = matchMedia('(min-width: 48rem)').matches
await load()
