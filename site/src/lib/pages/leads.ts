// Leads: search, unclaimed/mine filters, claim and release, add a claimed lead to the roster in one click (with the
// scout it names; asked which unit first when the family was not sure); copies to the spreadsheet that failed, with a
// retry button (or a plain word when no spreadsheet is set up).
import type { AnswerOf } from '#server/routes.ts'
import { onSend, api, byId, formParams, h, holds, signedInFor, when, type Route, showOutcome, bodyOrShowError } from '../admin.ts'

type Lead = AnswerOf<Route<'GET /api/admin/leads'>>['leads'][number]

const me = await signedInFor('/admin/leads/')
const form = byId<HTMLFormElement>('search')
const list = byId('leads')
const more = byId('more')
const retry = byId('retry')
let next: number | null = null

const interest = (lead: Lead) => (lead.unit === 'unsure' ? 'Not sure which unit' : `Interested in the ${lead.unit}`)

function contact(lead: Lead) {
  const links = [
    lead.email && h('a', { href: `mailto:${lead.email}` }, lead.email),
    lead.phone && h('a', { href: `tel:${lead.phone.replace(/[^\d+]/g, '')}` }, lead.phone),
  ].filter((l): l is HTMLElement => !!l)
  return h('p', { class: 'contact' }, ...links.flatMap((l, i) => (i ? [' · ', l] : [l])))
}

function actions(lead: Lead) {
  const mine = lead.claimed_by?.id === me.person?.id
  const buttons = [
    !lead.claimed_by && h('button', { type: 'button', onclick: () => act(lead, 'claim') }, 'Claim'),
    lead.claimed_by &&
      (mine || holds(me, 'people:manage')) &&
      h('button', { type: 'button', class: 'secondary', onclick: () => act(lead, 'release') }, 'Release'),
    lead.claimed_by &&
      !lead.household_id &&
      holds(me, 'roster:write') &&
      h('button', { type: 'button', onclick: (e) => addToRoster(lead, e.currentTarget as HTMLElement) }, 'Add to roster'),
    lead.household_id !== null && h('a', { href: `/admin/roster/#household-${lead.household_id}` }, 'On the roster'),
  ]
  return h('div', { class: 'row' }, ...buttons)
}

function card(lead: Lead): HTMLElement {
  const mine = lead.claimed_by?.id === me.person?.id
  const scout = `${lead.scout_name ? ` · scout ${lead.scout_name}` : ''}${lead.scout_grade ? `, grade ${lead.scout_grade}` : ''}`
  return h(
    'li',
    { class: 'card', 'data-lead': String(lead.id) },
    h('h2', {}, lead.parent_name),
    contact(lead),
    h('p', {}, `${interest(lead)}${scout}`),
    lead.message && h('p', { class: 'message' }, lead.message),
    h(
      'p',
      { class: 'muted' },
      `Sent ${when(lead.created_at)} · ${lead.claimed_by ? `claimed by ${mine ? 'you' : lead.claimed_by.email}` : 'unclaimed'}`,
    ),
    actions(lead),
  )
}

async function act(lead: Lead, verb: 'claim' | 'release') {
  const res = await api('POST', `/api/admin/leads/${lead.id}/${verb}`)
  showOutcome(res, `${verb === 'claim' ? 'Claimed' : 'Released'} ${lead.parent_name}.`)
  await load(true)
}

/** The units whose scouts the signed-in leader keeps: those they lead, or both for admins and owners. */
const keptUnits = (): ('pack' | 'troop')[] =>
  me.led_units.every_unit ? ['pack', 'troop'] : me.led_units.units.map((u) => u.slug as 'pack' | 'troop')

/**
 * Copies the lead into a roster household, with the scout it names as its first scout; when the family was not
 * sure which unit, asks first (one button per unit the leader keeps scouts in).
 */
async function addToRoster(lead: Lead, button: HTMLElement, unit?: 'pack' | 'troop') {
  if (lead.scout_name && lead.unit === 'unsure' && !unit) {
    const question = h(
      'fieldset',
      { class: 'group' },
      h('legend', {}, `Which unit should ${lead.scout_name} join?`),
      h(
        'div',
        { class: 'row' },
        ...keptUnits().map((u) =>
          h('button', { type: 'button', onclick: () => addToRoster(lead, question, u) }, u === 'pack' ? 'The pack' : 'The troop'),
        ),
        h('button', { type: 'button', class: 'secondary', onclick: () => question.replaceWith(button) }, 'Cancel'),
      ),
    )
    button.replaceWith(question)
    question.querySelector('button')?.focus()
    return
  }
  const res = await api('POST', '/api/admin/roster/households', { lead_id: lead.id, ...(unit ? { unit } : {}) })
  showOutcome(res, (household) => {
    const scout = household.scouts[0]
    return scout
      ? `Added ${lead.parent_name}'s household to the roster, with ${scout.first_name} in the ${scout.unit_slug}.`
      : `Added ${lead.parent_name}'s household to the roster: add their scout there.`
  })
  await load(true)
}

async function load(reset: boolean) {
  if (!reset && !next) return
  const params = formParams(form)
  if (!reset) params.set('before_id', String(next))
  const body = bodyOrShowError(await api('GET', `/api/admin/leads?${params}`))
  if (!body) return
  if (reset) list.replaceChildren()
  for (const lead of body.leads) list.append(card(lead))
  if (!list.children.length) list.append(h('li', {}, 'No leads match.'))
  next = body.next_before_id
  more.hidden = !next
}

async function failed() {
  const body = bodyOrShowError(await api('GET', '/api/admin/mirrors/failed'))
  if (!body) return
  const ul = byId('failed')
  ul.replaceChildren(
    ...body.failed.map((f) =>
      h(
        'li',
        {},
        `${f.parent_name}, sent ${when(f.created_at)}: ${f.error ?? 'not copied yet'} (${f.attempts} ${f.attempts === 1 ? 'try' : 'tries'})`,
      ),
    ),
  )
  if (!body.failed.length)
    ul.append(
      h(
        'li',
        {},
        body.configured
          ? 'None: every lead reached the spreadsheet.'
          : 'No spreadsheet is set up, so leads are not copied anywhere. An admin can set one in Settings.',
      ),
    )
  retry.hidden = !body.failed.length
}

retry.addEventListener('click', async () => {
  const res = await api('POST', '/api/admin/mirrors/retry', { target: 'spreadsheet' })
  showOutcome(res, (r) => `Tried ${r.attempted} again: ${r.ok} copied, ${r.failed} still failing.`)
  await failed()
})
onSend(form, (event) => {
  event.preventDefault()
  void load(true)
})
more.addEventListener('click', () => load(false))
await Promise.all([load(true), failed()])
