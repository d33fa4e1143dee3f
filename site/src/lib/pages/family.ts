// The family page: events asking for your reply, then your own household, scouts, dens and this year's checklist.
import type { GET as Family } from '#routes/api/admin/family/index.ts'
import { clockWords, dayWords } from '#server/words.ts'
import { api, byId, detailOf, h } from '../admin.ts'
import { rsvpForm } from '../rsvp-form.ts'

const res = await api<typeof Family>('GET', '/api/admin/family')
const box = byId('family')
if (!res.ok) box.replaceChildren(h('p', { class: 'error' }, detailOf(res)))
else {
  byId('year').textContent = `Program year ${res.body.year.label}`
  if (!res.body.households.length)
    box.replaceChildren(h('p', {}, 'Your account is not linked to a household yet. Ask your den leader to link it.'))
  else
    box.replaceChildren(
      ...(res.body.events.length ? [h('h2', {}, 'Please reply')] : []),
      ...res.body.events.map((e) =>
        h(
          'section',
          { class: 'card', 'data-event': e.uid },
          h('h3', {}, e.title),
          h('p', {}, `${dayWords(e.date)}${e.time ? `, ${clockWords(e.time)}` : ', all day'}${e.location ? ` · ${e.location}` : ''}`),
          ...res.body.households.map((hh) => rsvpForm(e, { id: hh.id, parent_name: hh.parent_name }, res.body.households.length > 1)),
        ),
      ),
      ...(res.body.events.length ? [h('h2', {}, 'Your household')] : []),
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
