// Money page: accounts with a form on each family to record a payment, a charge or a credit; dues, statements,
// fundraiser credits from a file, online payments to assign, and the treasurer's report with its CSV and print.
import type { AnswerOf } from '#server/routes.ts'
import { dollars, plural } from '#server/words.ts'
import { api, byId, h, onSubmit, ownUnit, showError, showStatus, signedInFor, text, type Route } from '../admin.ts'

type Account = AnswerOf<Route<'GET /api/admin/money/accounts'>>['accounts'][number]
type Credits = AnswerOf<Route<'POST /api/admin/money/credits/imports'>>

const me = await signedInFor('/admin/money/')
const unitSelect = byId<HTMLSelectElement>('money-unit')
const own = ownUnit(me)
if (own !== 'both') unitSelect.value = own
const unit = () => (unitSelect.value || undefined) as 'pack' | 'troop' | undefined
const localToday = () => new Date().toLocaleDateString('en-CA')

/** "$1,042.50" → 104250; NaN for what is not an amount. */
const centsOf = (value: string) => {
  const plain = value.replace(/[$,\s]/g, '')
  return /^\d+(\.\d{1,2})?$/.test(plain) ? Math.round(Number(plain) * 100) : NaN
}
const balanceWords = (cents: number) => (cents > 0 ? `owes ${dollars(cents)}` : cents < 0 ? `${dollars(-cents)} in credit` : 'settled')

/** The form on a family's card: a payment, charge, credit or refund for the family or one of its scouts. */
function entryForm(family: Account, scouts: Account[]): HTMLElement {
  const id = `entry-${family.household_id}`
  const form = h(
    'form',
    { class: 'stack', id, 'aria-label': `Record for ${family.name}` },
    h('p', { class: 'error', role: 'alert', id: `${id}-error`, tabindex: '-1', hidden: true }),
    h(
      'label',
      {},
      'For ',
      h(
        'select',
        { name: 'who' },
        h('option', { value: 'household' }, 'The whole family'),
        ...scouts.map((s) => h('option', { value: String(s.scout_id) }, s.name)),
      ),
    ),
    h(
      'label',
      {},
      'What ',
      h(
        'select',
        { name: 'kind' },
        h('option', { value: 'payment' }, 'Payment received'),
        h('option', { value: 'charge' }, 'Charge'),
        h('option', { value: 'credit' }, 'Credit'),
        h('option', { value: 'refund' }, 'Refund paid out'),
      ),
    ),
    h('label', {}, 'Amount, in dollars ', h('input', { name: 'amount', required: true, inputmode: 'decimal', autocomplete: 'off' })),
    h('label', {}, 'Memo ', h('input', { name: 'memo', required: true, maxlength: '200' })),
    h('label', {}, 'Date ', h('input', { name: 'date', type: 'date', required: true, value: localToday() })),
    h(
      'label',
      {},
      'Paid by (payments and refunds) ',
      h(
        'select',
        { name: 'method' },
        ...['cash', 'check', 'online', 'other'].map((m) => h('option', { value: m }, m[0].toUpperCase() + m.slice(1))),
      ),
    ),
    h('label', {}, 'Check number or receipt (optional) ', h('input', { name: 'reference', maxlength: '200' })),
    h('button', { type: 'submit' }, 'Record'),
  ) as HTMLFormElement
  onSubmit(
    form,
    async (data) => {
      const kind = text(data, 'kind') as 'payment' | 'charge' | 'credit' | 'refund'
      const who = text(data, 'who')
      const paid = kind === 'payment' || kind === 'refund'
      const amount = centsOf(text(data, 'amount'))
      if (Number.isNaN(amount) || amount === 0)
        return { ok: false as const, status: 422, body: { detail: 'amount: write it in dollars and cents, like 25 or 25.50' } }
      return api('POST', '/api/admin/money/entries', {
        ...(who === 'household' ? { household_id: family.household_id } : { scout_id: Number(who) }),
        kind,
        amount_cents: amount,
        date: text(data, 'date'),
        memo: text(data, 'memo'),
        ...(paid ? { method: text(data, 'method') as 'cash' } : {}),
        ...(paid && text(data, 'reference') ? { reference: text(data, 'reference') } : {}),
      })
    },
    async (body) => {
      await loadAccounts()
      // The card was drawn again, and the button pressed with it: the confirmation takes the focus, in view.
      showStatus(`Recorded ${body.entry.kind} of ${dollars(body.entry.amount_cents)} for ${family.name}.`)
      byId('status').focus()
    },
    { fieldName: (field) => (field === 'amount_cents' ? 'amount' : field.split('.')[0]) },
  )
  return form
}

function familyCard(family: Account, scouts: Account[]): HTMLElement {
  return h(
    'li',
    { class: 'card stack', 'data-household': String(family.household_id) },
    h(
      'p',
      {},
      h('strong', {}, family.name),
      ' · ',
      h('span', { class: family.balance_cents > 0 ? 'owes' : '' }, balanceWords(family.balance_cents)),
    ),
    h('ul', { class: 'scouts' }, ...scouts.map((s) => h('li', {}, `${s.name}: ${balanceWords(s.balance_cents)}`))),
    h('p', { class: 'muted' }, `Payment reference ${family.payment_reference}`),
    h('details', {}, h('summary', {}, 'Record a payment or charge'), entryForm(family, scouts)),
  )
}

async function loadAccounts() {
  const res = await api('GET', `/api/admin/money/accounts?${new URLSearchParams(unit() ? { unit: unit()! } : {})}`)
  if (!res.ok) return showError(res)
  const families = res.body.accounts.filter((a) => a.scout_id === undefined)
  byId('accounts').replaceChildren(
    ...families.map((f) =>
      familyCard(
        f,
        res.body.accounts.filter((a) => a.scout_id !== undefined && a.household_id === f.household_id),
      ),
    ),
  )
  if (!families.length) byId('accounts').append(h('li', {}, 'No families in this unit yet.'))
  byId('totals').textContent =
    `Families owe ${dollars(res.body.totals.owed_cents)} in all; ${dollars(res.body.totals.credit_cents)} is in credit.`
}

async function loadUnmatched() {
  const res = await api('GET', '/api/admin/money/unmatched')
  if (!res.ok) return
  byId('unmatched-section').hidden = !res.body.payments.length
  const families = [...byId('accounts').querySelectorAll<HTMLElement>('[data-household]')].map((li) => ({
    id: li.dataset.household!,
    name: li.querySelector('strong')!.textContent!,
  }))
  byId('unmatched').replaceChildren(
    ...res.body.payments.map((p) => {
      const form = h(
        'form',
        { class: 'stack', id: `assign-${p.id}` },
        h('p', { class: 'error', role: 'alert', id: `assign-${p.id}-error`, tabindex: '-1', hidden: true }),
        h(
          'label',
          {},
          'Whose is it? ',
          h('select', { name: 'household_id' }, ...families.map((f) => h('option', { value: f.id }, f.name))),
        ),
        h('button', { type: 'submit' }, 'Give it to this family'),
      ) as HTMLFormElement
      onSubmit(
        form,
        (data) => api('POST', `/api/admin/money/unmatched/${p.id}/assign`, { household_id: Number(text(data, 'household_id')) }),
        async () => {
          await refresh()
          showStatus(`The payment of ${dollars(p.amount_cents)} is on the family's account.`)
        },
      )
      return h(
        'li',
        { class: 'card stack' },
        h(
          'p',
          {},
          `${dollars(p.amount_cents)} paid online, reference “${p.reference ?? 'none'}”, by ${p.payer_email ?? 'an unknown address'}`,
        ),
        form,
      )
    }),
  )
}

async function refresh() {
  await loadAccounts()
  await loadUnmatched()
}

unitSelect.addEventListener('change', refresh)
byId<HTMLInputElement>('dues-year').value = String(new Date().getMonth() >= 8 ? new Date().getFullYear() : new Date().getFullYear() - 1)

onSubmit(
  byId<HTMLFormElement>('dues'),
  (data) =>
    api('POST', '/api/admin/money/dues', {
      unit: text(data, 'unit') as 'pack',
      program_year: Number(text(data, 'program_year')),
      amount_cents: centsOf(text(data, 'amount')),
      due_on: text(data, 'due_on'),
    }),
  async (r) => {
    showStatus(
      `Charged ${plural(r.charged.length, 'scout')} ${dollars(r.amount_cents)}; ${plural(r.already_charged.length, 'scout')} had been charged before.`,
    )
    await loadAccounts()
  },
  { reset: false },
)

onSubmit(
  byId<HTMLFormElement>('statements'),
  (data) => {
    const min = text(data, 'min')
    return api('POST', '/api/admin/money/reminders', {
      unit: text(data, 'unit') as 'pack',
      ...(min ? { min_balance_cents: centsOf(min) } : {}),
    })
  },
  (r) =>
    showStatus(
      `Statements are on their way to ${plural(r.households, 'family', 'families')} (${plural(r.queued, 'address', 'addresses')}).`,
    ),
)

let credits: Credits | null = null
onSubmit(
  byId<HTMLFormElement>('credits'),
  async (data) =>
    api('POST', '/api/admin/money/credits/imports', { csv: await (data.get('file') as File).text(), ...(unit() ? { unit: unit()! } : {}) }),
  (p) => {
    credits = p
    byId('credits-lines').replaceChildren(
      ...p.credits.map((c) => h('li', {}, `${c.name}: ${dollars(c.amount_cents)}, ${c.memo}`)),
      ...p.bad_rows.map((b) => h('li', {}, h('strong', {}, `Line ${b.line} not credited: `), b.reason)),
    )
    const apply = byId<HTMLButtonElement>('credits-apply')
    apply.disabled = !p.credits.length
    apply.textContent = p.credits.length ? `Credit ${dollars(p.total_cents)} to ${plural(p.credits.length, 'scout')}` : 'Nothing to credit'
    byId('credits-preview').hidden = false
    byId('credits-title').focus()
  },
  { reset: false },
)
byId('credits-apply').addEventListener('click', async () => {
  if (!credits) return
  const res = await api('POST', `/api/admin/money/credits/imports/${credits.id}/apply`)
  if (!res.ok) return showError(res, byId('credits-error'))
  credits = null
  byId('credits-preview').hidden = true
  await loadAccounts()
  showStatus(`Credited ${dollars(res.body.total_cents)} to ${plural(res.body.created, 'scout')}.`)
})

const cell = (value: string, cents = false) => h('td', cents ? { class: 'cents' } : {}, value)
const head = (...names: string[]) =>
  h('tr', {}, ...names.map((n, i) => h('th', i ? { class: 'cents', scope: 'col' } : { scope: 'col' }, n)))

onSubmit(
  byId<HTMLFormElement>('report-form'),
  (data) => {
    const query = {
      ...(unit() ? { unit: unit()! } : {}),
      ...(text(data, 'from') ? { from: text(data, 'from') } : {}),
      ...(text(data, 'to') ? { to: text(data, 'to') } : {}),
    }
    byId<HTMLAnchorElement>('report-csv').href = `/api/admin/money/report.csv?${new URLSearchParams(query)}`
    return api('GET', `/api/admin/money/report?${new URLSearchParams(query)}`)
  },
  (r) => {
    byId('report-title').textContent = `${r.unit ? r.unit[0].toUpperCase() + r.unit.slice(1) : 'All units'}, ${r.from} to ${r.to}`
    byId('report-totals').replaceChildren(
      h('caption', {}, 'Totals'),
      head('', 'Amount'),
      ...(['charge', 'payment', 'credit', 'refund'] as const).map((k) =>
        h('tr', {}, cell(`${k[0].toUpperCase()}${k.slice(1)}s`), cell(dollars(r.by_kind[k]), true)),
      ),
      ...r.by_event.map((e) =>
        h(
          'tr',
          {},
          cell(`${e.title ?? e.event_uid}: charged / paid`),
          cell(`${dollars(e.charge_cents)} / ${dollars(e.payment_cents)}`, true),
        ),
      ),
      ...r.by_method.map((m) =>
        h('tr', {}, cell(`Paid by ${m.method ?? 'unknown'}`), cell(dollars(m.payment_cents - m.refund_cents), true)),
      ),
    )
    byId('report-accounts').replaceChildren(
      h('caption', {}, 'Families'),
      head('Family', 'Opening', 'Closing'),
      ...r.accounts
        .filter((a) => a.scout_id === undefined)
        .map((a) => h('tr', {}, cell(a.name), cell(dollars(a.opening_cents), true), cell(dollars(a.closing_cents), true))),
      h('tr', {}, cell('All families'), cell(dollars(r.totals.opening_cents), true), cell(dollars(r.totals.closing_cents), true)),
    )
    byId('report').hidden = false
    byId('report-title').focus()
  },
  { reset: false },
)
byId('report-print').addEventListener('click', () => window.print())

await refresh()
