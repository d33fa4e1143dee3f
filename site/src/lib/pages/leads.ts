// Leads: search, unclaimed/mine filters, claim and release; failed copies to the spreadsheet with a retry button.
import type { POST as ClaimLead } from '#routes/api/admin/leads/[id]/claim.ts'
import type { POST as ReleaseLead } from '#routes/api/admin/leads/[id]/release.ts'
import type { GET as ListLeads } from '#routes/api/admin/leads/index.ts'
import type { GET as FailedCopies } from '#routes/api/admin/mirrors/failed.ts'
import type { POST as RetryCopies } from '#routes/api/admin/mirrors/retry.ts'
import type { AnswerOf } from '#server/routes.ts'
import { answered, api, byId, formParams, h, report, when, whoami } from '../admin.ts'

type Lead = AnswerOf<typeof ListLeads>['leads'][number]

const form = byId<HTMLFormElement>('search')
const list = byId('leads')
const more = byId('more')
const retry = byId('retry')
const me = await whoami()
let next: number | null = null

function card(lead: Lead): HTMLElement {
  const mine = lead.claimed_by?.id === me.person?.id
  const action = !lead.claimed_by
    ? h('button', { type: 'button', onclick: () => act(lead, 'claim') }, 'Claim')
    : mine || me.capabilities.includes('people:manage')
      ? h('button', { type: 'button', class: 'secondary', onclick: () => act(lead, 'release') }, 'Release')
      : null
  const interest = lead.unit === 'unsure' ? 'Not sure which unit' : `Interested in the ${lead.unit}`
  return h(
    'li',
    { class: 'card', 'data-lead': String(lead.id) },
    h('h2', {}, lead.parent_name),
    h('p', {}, [lead.email, lead.phone].filter(Boolean).join(' · ')),
    h(
      'p',
      {},
      `${interest}${lead.scout_name ? ` · scout ${lead.scout_name}` : ''}${lead.scout_grade ? `, grade ${lead.scout_grade}` : ''}`,
    ),
    lead.message && h('p', { class: 'muted' }, lead.message),
    h(
      'p',
      { class: 'muted' },
      `Sent ${when(lead.created_at)} · ${lead.claimed_by ? `claimed by ${mine ? 'you' : lead.claimed_by.email}` : 'unclaimed'}`,
    ),
    action,
  )
}

async function act(lead: Lead, verb: 'claim' | 'release') {
  const path = `/api/admin/leads/${lead.id}/${verb}`
  const res = verb === 'claim' ? await api<typeof ClaimLead>('POST', path) : await api<typeof ReleaseLead>('POST', path)
  report(res, `${verb === 'claim' ? 'Claimed' : 'Released'} ${lead.parent_name}.`)
  await load(true)
}

async function load(reset: boolean) {
  const params = formParams(form)
  if (!reset && next) params.set('before_id', String(next))
  const body = answered(await api<typeof ListLeads>('GET', `/api/admin/leads?${params}`))
  if (!body) return
  if (reset) list.replaceChildren()
  for (const lead of body.leads) list.append(card(lead))
  if (!list.children.length) list.append(h('li', {}, 'No leads match.'))
  next = body.next_before_id
  more.hidden = !next
}

async function failed() {
  const res = await api<typeof FailedCopies>('GET', '/api/admin/mirrors/failed')
  const items = res.ok ? res.body.failed : []
  const ul = byId('failed')
  ul.replaceChildren(
    ...items.map((f) => h('li', {}, `${f.parent_name} (lead ${f.lead_id}): ${f.error ?? 'not sent yet'}, ${f.attempts} attempts`)),
  )
  if (!items.length) ul.append(h('li', {}, 'None: every lead reached the spreadsheet.'))
  retry.hidden = !items.length
}

retry.addEventListener('click', async () => {
  const res = await api<typeof RetryCopies>('POST', '/api/admin/mirrors/retry', { target: 'spreadsheet' })
  report(res, (r) => `Retried ${r.attempted}: ${r.ok} copied, ${r.failed} still failing.`)
  await failed()
})
form.addEventListener('submit', (event) => {
  event.preventDefault()
  void load(true)
})
more.addEventListener('click', () => load(false))
await Promise.all([load(true), failed()])
