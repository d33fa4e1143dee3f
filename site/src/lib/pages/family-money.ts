// The family page's money: what the household owes, each scout's entries this program year, and a Pay button for
// each way the unit takes payments (the amount filled in where the provider takes it), with how else to pay.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, dollars } from '#server/words.ts'
import { api, byId, h, type Route } from '../admin.ts'

type Statement = AnswerOf<Route<'GET /api/admin/family/money'>>['statements'][number]
type Account = Statement['family']

const owedWords = (cents: number) => (cents > 0 ? `owes ${dollars(cents)}` : cents < 0 ? `${dollars(-cents)} in credit` : 'all paid')

function account(title: string, a: Account, since: string) {
  return h(
    'div',
    { class: 'stack' },
    h('h4', {}, `${title}: ${owedWords(a.balance_cents)}`),
    h(
      'ul',
      { class: 'plain money-lines' },
      ...(a.carried_cents ? [h('li', {}, `Before ${dayWords(since, { year: true })}: ${dollars(a.carried_cents)}`)] : []),
      ...a.lines.map((l) =>
        h(
          'li',
          {},
          `${dayWords(l.date, { year: true })} · ${l.memo}: `,
          h('span', { class: 'cents' }, l.cents < 0 ? `${dollars(-l.cents)} paid` : dollars(l.cents)),
        ),
      ),
    ),
  )
}

function statementCard(st: Statement) {
  const instructions = h('div', {})
  if (st.instructions) instructions.innerHTML = st.instructions // sanitised by the server
  return h(
    'section',
    { class: 'card stack', 'data-statement': String(st.household_id) },
    h('h3', {}, `${st.parent_name}'s household ${owedWords(st.owed_cents)}`),
    ...(st.pay.length
      ? [
          h(
            'p',
            { class: 'row pay' },
            ...st.pay.map((p) =>
              h('a', { class: 'cta', href: p.url, target: '_blank', rel: 'noopener' }, `${p.label} (${dollars(st.owed_cents)})`),
            ),
          ),
        ]
      : []),
    ...(st.instructions ? [h('div', {}, h('h4', {}, 'Other ways to pay'), instructions)] : []),
    ...(st.owed_cents > 0
      ? [h('p', { class: 'muted' }, `Your payment reference: ${st.payment_reference}. Give it with a check or transfer.`)]
      : []),
    ...st.scouts.map((s) => account(s.name, s, st.since)),
    ...(st.family.lines.length || st.family.carried_cents ? [account('Family', st.family, st.since)] : []),
  )
}

const res = await api('GET', '/api/admin/family/money')
if (res.ok && res.body.statements.length) {
  byId('money-statements').replaceChildren(...res.body.statements.map(statementCard))
  byId('money').hidden = false
}
