// Settings: a form per setting generated from the typed registry, its 422 message shown beside the field; site builds.
import type { PUT as SaveSetting } from '#routes/api/admin/settings/[key].ts'
import type { GET as ListSettings } from '#routes/api/admin/settings/index.ts'
import type { GET as SiteBuilds } from '#routes/api/admin/site/index.ts'
import type { POST as Rebuild } from '#routes/api/admin/site/rebuild.ts'
import type { AnswerOf } from '#server/routes.ts'
import { answered, api, byId, detailOf, h, report, tell, when } from '../admin.ts'

type Setting = AnswerOf<typeof ListSettings>['settings'][number]

function input(s: Setting): HTMLInputElement | HTMLSelectElement {
  const id = `setting-${s.key}`
  if (s.type.startsWith('enum: ')) {
    const choices = s.type.slice('enum: '.length).split(' | ')
    return h(
      'select',
      { id, name: 'value' },
      ...choices.map((c) => h('option', { value: c, selected: c === s.value }, c)),
    ) as HTMLSelectElement
  }
  const numeric = s.type.startsWith('integer')
  const value = s.value === null ? '' : String(s.value)
  return h('input', {
    id,
    name: 'value',
    type: numeric ? 'number' : 'text',
    inputmode: numeric ? 'numeric' : 'text',
    value,
  }) as HTMLInputElement
}

function settingCard(s: Setting): HTMLElement {
  const field = input(s)
  const problem = h('span', { class: 'field-error', id: `error-${s.key}`, role: 'alert' })
  field.setAttribute('aria-describedby', `error-${s.key} about-${s.key}`)
  const form = h(
    'form',
    { class: 'row', 'data-key': s.key },
    h('label', { for: field.id }, s.key, field, problem),
    h('button', { type: 'submit' }, 'Save'),
  ) as HTMLFormElement
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const raw = field.value.trim()
    const value = raw === '' ? null : s.type.startsWith('integer') && /^-?\d+$/.test(raw) ? Number(raw) : raw
    const saved = await api<typeof SaveSetting>('PUT', `/api/admin/settings/${encodeURIComponent(s.key)}`, { value })
    problem.textContent = saved.ok ? '' : detailOf(saved)
    if (!saved.ok) return field.setAttribute('aria-invalid', 'true')
    field.removeAttribute('aria-invalid')
    field.value = saved.body.setting.value === null ? '' : String(saved.body.setting.value)
    tell(`Saved ${s.key}.`)
  })
  const about = `${s.description} Type: ${s.type}. Default: ${JSON.stringify(s.default)}.`
  return h('section', { class: 'card' }, form, h('p', { class: 'muted', id: `about-${s.key}` }, about))
}

async function load() {
  const body = answered(await api<typeof ListSettings>('GET', '/api/admin/settings'))
  if (body) byId('settings').replaceChildren(...body.settings.map(settingCard))
}

async function build() {
  const res = await api<typeof SiteBuilds>('GET', '/api/admin/site')
  const last = res.ok ? res.body.last : null
  byId('build').textContent = !res.ok
    ? detailOf(res)
    : !last
      ? 'No build yet.'
      : `Last build ${when(last.finished_at)}: ${last.ok ? 'succeeded' : 'FAILED'} in ${(last.duration_ms / 1000).toFixed(1)} s` +
        `${last.error ? ` — ${last.error}` : ''}${res.body.building ? ' (a build is under way)' : ''}.`
}

byId('rebuild').addEventListener('click', async () => {
  report(await api<typeof Rebuild>('POST', '/api/admin/site/rebuild'), 'Rebuild queued.')
  setTimeout(build, 3000)
})
await Promise.all([load(), build()])
