// The family page: your own household, scouts, dens and this year's checklist.
import type { GET as Family } from '#routes/api/admin/family.ts'
import { api, byId, detailOf, h } from '../admin.ts'

const res = await api<typeof Family>('GET', '/api/admin/family')
const box = byId('family')
if (!res.ok) box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
else {
  byId('year').textContent = `Program year ${res.body.year.label}`
  if (!res.body.households.length)
    box.replaceChildren(h('p', {}, 'Your account is not linked to a household yet. Ask your den leader to link it.'))
  else
    box.replaceChildren(
      ...res.body.households.map((hh) =>
        h(
          'section',
          { class: 'card' },
          h('h2', {}, hh.parent_name),
          ...hh.scouts.map((s) =>
            h(
              'div',
              { 'data-scout': String(s.id) },
              h('h3', {}, `${s.first_name} ${s.last_name ?? ''}`.trim()),
              h('p', {}, `${s.unit_name}${s.den ? `, ${s.den} den` : ''}`),
              h(
                'ul',
                {},
                h('li', { 'data-check': 'dues' }, `Dues: ${s.checks.dues.done ? 'paid' : 'not yet'}`),
                h('li', { 'data-check': 'health_form' }, `Health form: ${s.checks.health_form.done ? 'received' : 'not yet'}`),
              ),
            ),
          ),
        ),
      ),
    )
}
