// People: invite (the link is shown once), disable/enable, reset links, and a roles editor limited to what you may grant.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { plural } from '#server/words.ts'
import { api, byId, h, onSubmit, signedInFor, text, when, type Route, showStatus, showOutcomeRedrawn, bodyOrShowError } from '../admin.ts'

type Listing = AnswerOf<Route<'GET /api/admin/people'>>
type Person = Listing['people'][number]
type OpenInvite = Listing['invites'][number]
type UnitGrants = NonNullable<BodyOf<Route<'POST /api/admin/people/invite'>>['units']>

const me = await signedInFor('/admin/people/')
const canManage = me.capabilities.includes('people:manage')
const canReset = me.capabilities.includes('people:invite_admin')
let grantable: Listing['grantable'] = { global_roles: [], units: [] }

const invite = byId<HTMLFormElement>('invite')
/** Whether the site sends mail: then links can be mailed from here. */
const mailSetUp = invite.dataset.mail === 'on'

/** Shows a new link in `box` (under the invite form, or on the card of the person it is for) and moves there. */
function showLink(box: HTMLElement, label: string, url: string) {
  box.replaceChildren(
    h('p', { class: 'notice', role: 'status', id: `${box.id}-label` }, label),
    h('code', { class: 'secret', id: `${box.id}-value` }, url),
    h('button', { type: 'button', class: 'secondary', onclick: () => copy(url) }, 'Copy link'),
  )
  box.hidden = false
  box.focus()
  box.scrollIntoView({ block: 'center' })
}

async function copy(url: string) {
  await navigator.clipboard?.writeText(url)
  showStatus('Link copied.')
}

function unitChoices(container: HTMLElement, current: Person['units'] = []) {
  container.replaceChildren(h('legend', {}, 'Unit roles'))
  for (const u of grantable.units) {
    const held = current.find((c) => c.unit_id === u.id)
    const options = u.roles.map((r) => h('option', { value: r, selected: held?.role === r }, r))
    container.append(
      h(
        'label',
        {},
        u.name,
        h('select', { name: `unit-${u.id}`, 'aria-label': `Role in ${u.name}` }, h('option', { value: '' }, 'None'), ...options),
      ),
    )
  }
}

const unitsFrom = (editor: HTMLFormElement): UnitGrants =>
  grantable.units.flatMap((u) => {
    const role = (editor.elements.namedItem(`unit-${u.id}`) as HTMLSelectElement).value
    return role ? [{ unit_id: u.id, role: role as UnitGrants[number]['role'] }] : []
  })

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/people'))
  if (!body) return
  grantable = body.grantable
  const globalRole = byId<HTMLSelectElement>('invite-global')
  for (const option of globalRole.options) option.disabled = option.value !== '' && !grantable.global_roles.some((r) => r === option.value)
  globalRole.disabled = !grantable.global_roles.length
  for (const select of byId('invite-units').querySelectorAll('select'))
    select.disabled = !grantable.units.some((u) => select.name === `unit-${u.id}`)
  byId('invites').replaceChildren(
    ...body.invites.map((i) =>
      h(
        'li',
        {},
        `${i.email}, expires ${when(i.expires_at)} `,
        h('button', { type: 'button', class: 'secondary', onclick: () => revokeInvite(i) }, 'Revoke'),
      ),
    ),
  )
  byId('no-invites').hidden = body.invites.length > 0
  byId('people').replaceChildren(...body.people.map(card))
}

function rolesEditor(p: Person): HTMLFormElement {
  const editor = h('form', { class: 'stack', hidden: true, 'aria-label': `Roles of ${p.email}` }) as HTMLFormElement
  if (!canManage) return editor
  const globalRole = h(
    'select',
    { name: 'global_role' },
    ...['', 'admin', 'owner'].map((r) => h('option', { value: r, selected: (p.global_role ?? '') === r }, r || 'None')),
  ) as HTMLSelectElement
  const units = h('fieldset', { class: 'checks' })
  unitChoices(units, p.units)
  editor.append(h('label', {}, 'Global role', globalRole), units, h('button', { type: 'submit' }, 'Save roles'))
  onSubmit(
    editor,
    () =>
      api('PUT', `/api/admin/people/${p.id}/roles`, {
        global_role: (globalRole.value || null) as BodyOf<Route<'PUT /api/admin/people/{id}/roles'>>['global_role'],
        units: unitsFrom(editor),
      }),
    async () => {
      await load()
      showStatus(`Saved the roles of ${p.email}.`)
    },
    { problem: byId('status'), reset: false },
  )
  return editor
}

function card(p: Person): HTMLElement {
  const roles =
    [p.global_role, ...p.units.map((u) => `${u.role} of the ${u.slug}${u.title ? ` (${u.title})` : ''}`)].filter(Boolean).join(', ') ||
    'no roles'
  const editor = rolesEditor(p)
  const self = p.id === me.person?.id
  const resetLink = h('div', { id: `reset-${p.id}`, tabindex: '-1', hidden: true })
  const activeKeys = p.keys.filter((k) => k.state === 'active').length
  return h(
    'li',
    { class: 'card', 'data-person': String(p.id) },
    h('h3', {}, p.name ?? p.email),
    h('p', {}, `${p.email} · ${roles}${p.disabled ? ' · DISABLED' : ''}`),
    h(
      'p',
      { class: 'muted' },
      `${plural(p.sessions.length, 'active session')} · ${plural(activeKeys, 'active key')} · ` +
        (p.second_factor ? 'second factor on' : 'no second factor'),
    ),
    h(
      'div',
      { class: 'row' },
      canManage &&
        !self &&
        h(
          'button',
          { type: 'button', class: p.disabled ? 'secondary' : 'danger', onclick: () => toggle(p) },
          p.disabled ? 'Enable' : 'Disable',
        ),
      canReset &&
        !p.disabled &&
        h('button', { type: 'button', class: 'secondary', onclick: () => reset(p, false, resetLink) }, 'Password reset link'),
      canReset &&
        !p.disabled &&
        mailSetUp &&
        h('button', { type: 'button', class: 'secondary', onclick: () => reset(p, true, resetLink) }, 'Email a reset link'),
      canManage && h('button', { type: 'button', class: 'secondary', onclick: () => (editor.hidden = !editor.hidden) }, 'Edit roles'),
      canManage &&
        p.second_factor &&
        h('button', { type: 'button', class: 'secondary', onclick: () => removeFactors(p) }, 'Remove second factor'),
    ),
    resetLink,
    editor,
  )
}

async function toggle(p: Person) {
  if (!p.disabled && !confirm(`Disable ${p.email}? Their sessions end and their keys stop at once.`)) return
  const res = await api('POST', `/api/admin/people/${p.id}/${p.disabled ? 'enable' : 'disable'}`)
  await showOutcomeRedrawn(res, `${p.email} is ${p.disabled ? 'enabled' : 'disabled'}.`, load)
}

async function removeFactors(p: Person) {
  if (
    !confirm(
      `Remove the second factor of ${p.email}? Do this when they lost their phone or passkey: they add a new one at their next sign-in.`,
    )
  )
    return
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/people/${p.id}/second-factor`), `Removed the second factor of ${p.email}.`, load)
}

async function reset(p: Person, send_email: boolean, box: HTMLElement) {
  const link = bodyOrShowError(await api('POST', `/api/admin/people/${p.id}/reset`, { send_email }))
  if (link)
    showLink(
      box,
      `${link.emailed ? `Mailed to ${p.email}. ` : ''}Password reset link for ${p.email}: works once, for 24 hours; their current password works until it is used.`,
      link.url ?? '',
    )
}

async function revokeInvite(i: OpenInvite) {
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/people/invite/${i.id}`), `Revoked the invite of ${i.email}.`, load)
}

onSubmit(
  invite,
  (data) =>
    api('POST', '/api/admin/people/invite', {
      email: text(data, 'email'),
      global_role: (data.get('global_role') || null) as BodyOf<Route<'POST /api/admin/people/invite'>>['global_role'],
      units: unitsFrom(invite),
      send_email: data.get('send_email') === 'on',
    }),
  async (invited) => {
    showLink(
      byId('link'),
      `${invited.emailed ? `Mailed to ${invited.email}. ` : ''}Invite link for ${invited.email}: works once, for 14 days, and is not shown again.`,
      invited.url ?? '',
    )
    await load()
  },
)
await load()
