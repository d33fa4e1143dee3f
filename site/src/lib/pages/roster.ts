// Roster: the counts the filters find, a card per household opening its dialog (its fields, its scouts with this year's
// one-tap checklist, its accounts and open invites), and CSV export of what is shown. The filters, the scout dialog and
// "Invite a parent" are in roster-filters.ts, roster-scout.ts and roster-invite.ts.
import type { AnswerOf } from '#server/routes.ts'
import { denWords, goesBy } from '#server/words.ts'
import {
  api,
  type ApiResult,
  type Route,
  byId,
  h,
  holds,
  onSubmit,
  signedInFor,
  text,
  when,
  showStatus,
  showError,
  bodyOrShowError,
  field,
  orNull,
} from '../admin.ts'
import { badges, duesBox, healthFormDate, statusHere } from '../roster-checks.ts'
import { countsWords, rosterFilters } from '../roster-filters.ts'
import { inviteDialog } from '../roster-invite.ts'
import { scoutDialog } from '../roster-scout.ts'
import { logLine } from '../scout-log.ts'

type Roster = AnswerOf<Route<'GET /api/admin/roster'>>
type Listed = Roster['households'][number]
type Household = AnswerOf<Route<'GET /api/admin/roster/households/{id}'>>
type Scout = Household['scouts'][number]
type OpenInvite = Listed['invites'][number]

const me = await signedInFor('/admin/roster/')
const canLink = holds(me, 'people:invite_leader')
const filters = byId<HTMLFormElement>('filters')
const unitSelect = byId<HTMLSelectElement>('unit')
const moreFilters = byId<HTMLDetailsElement>('more-filters')
const householdDialog = byId<HTMLDialogElement>('household-dialog')
const householdForm = byId<HTMLFormElement>('household')
let roster: Roster | null = null
let accounts: { id: number; email: string }[] | null = null
/** The household the dialog shows (null while adding one), with its open invites and the links made this time. */
let editing: { household: Household; invites: OpenInvite[]; links: Map<number, string> } | null = null
let addingHousehold = false
let loads = 0
let openedFromHash = false

const filtering = rosterFilters({ me, reload: () => void load() })
const { chosen, apply } = filtering

// ——— The list ———

async function load() {
  const query = chosen()
  const mine = ++loads
  byId<HTMLAnchorElement>('csv').href = `/api/admin/roster/export${query.size ? `?${query}` : ''}`
  const body = bodyOrShowError(await api('GET', query.size ? `/api/admin/roster?${query}` : '/api/admin/roster'))
  if (!body || mine !== loads) return
  roster = body
  filtering.show(body)
  const on = ['unit', 'den', 'dues', 'health', 'inactive_weeks'].filter((name) => query.get(name)).length
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

/** A scout in the household dialog: who, where, photo consent, this year's dues box, health-form date and log totals. */
function scoutItem(hh: Household, sc: Scout) {
  return h(
    'li',
    { 'data-scout': String(sc.id) },
    h(
      'p',
      {},
      h('strong', {}, goesBy(sc)),
      ' ',
      h('button', { type: 'button', class: 'link', 'aria-label': `Edit ${sc.first_name}`, onclick: () => scouts.open(hh, sc) }, 'Edit'),
    ),
    h(
      'p',
      { class: 'muted' },
      aboutScout(sc),
      h('span', { class: 'badges' }, h('span', { class: 'badge' }, sc.photo_consent ? 'photos OK' : 'no photos')),
    ),
    h('div', { class: 'row' }, duesBox(sc), ...healthFormDate(sc)),
    logLine(sc.id),
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

// ——— The scout and invite dialogs ———

const scouts = scoutDialog({
  me,
  roster: () => roster,
  unitFilter: () => unitSelect.value,
  async saved(words) {
    if (editing && householdDialog.open) {
      const fresh = bodyOrShowError(await api('GET', `/api/admin/roster/households/${editing.household.id}`))
      if (fresh) editing.household = fresh
      renderScouts()
    }
    showStatus(words, statusHere())
  },
})

const invites = inviteDialog({
  me,
  household: () => editing?.household ?? null,
  async invited(invited) {
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
})

// ——— Wiring ———

for (const close of document.querySelectorAll<HTMLButtonElement>('dialog [data-close]'))
  close.addEventListener('click', () => close.closest('dialog')!.close())
byId('new-household').addEventListener('click', openNewHousehold)
byId('invite-parent').addEventListener('click', invites.open)
byId('add-scout').addEventListener('click', () => editing && scouts.open(editing.household, null))
filtering.wire()
moreFilters.open = matchMedia('(min-width: 48rem)').matches
await load()
