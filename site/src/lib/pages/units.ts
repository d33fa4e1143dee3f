// Own units: name, number and meeting day, time and place of the units you may edit.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { api, byId, h, onSubmit, signedInFor, type Route, showStatus, bodyOrShowError } from '../admin.ts'

await signedInFor('/admin/units/')

type Unit = AnswerOf<Route<'GET /api/admin/units'>>['units'][number]
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

function unitForm(u: Unit): HTMLFormElement {
  const id = (f: string) => `${u.slug}-${f}`
  const days = DAYS.map((d) => h('option', { value: d, selected: d === u.meeting_day }, d[0].toUpperCase() + d.slice(1)))
  const problem = h('p', { class: 'error', role: 'alert', tabindex: '-1', hidden: true })
  const form = h(
    'form',
    { class: 'stack card', 'aria-label': u.name },
    h('h2', {}, `${u.name}${u.number ? ` ${u.number}` : ''}`),
    problem,
    h('label', {}, 'Name', h('input', { name: 'name', maxlength: '100', required: true, value: u.name })),
    h('label', {}, 'Number', h('input', { name: 'number', maxlength: '20', value: u.number ?? '' })),
    h(
      'label',
      { for: id('day') },
      'Meeting day',
      h('select', { id: id('day'), name: 'meeting_day' }, h('option', { value: '' }, '—'), ...days),
    ),
    h('label', {}, 'Meeting time', h('input', { type: 'time', name: 'meeting_time', value: u.meeting_time ?? '' })),
    h('label', {}, 'Meeting place', h('input', { name: 'meeting_place', maxlength: '200', value: u.meeting_place ?? '' })),
    h('button', { type: 'submit' }, `Save ${u.unit_type}`),
  ) as HTMLFormElement
  onSubmit(
    form,
    (data) => {
      const fields = Object.fromEntries([...data].map(([k, v]) => [k, String(v).trim() || null]))
      return api('PATCH', `/api/admin/units/${u.slug}`, fields as BodyOf<Route<'PATCH /api/admin/units/{slug_or_id}'>>)
    },
    (unit) => {
      form.querySelector('h2')!.textContent = `${unit.name}${unit.number ? ` ${unit.number}` : ''}`
      showStatus(`Saved the ${u.unit_type}. The public page updates in a few seconds.`)
    },
    { problem, reset: false },
  )
  return form
}

const listed = bodyOrShowError(await api('GET', '/api/admin/units'))
if (listed) byId('units').append(...listed.units.map(unitForm))
