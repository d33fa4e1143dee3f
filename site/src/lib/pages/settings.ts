// Settings: one small form per setting, named in words, with its description and default; a refusal shows
// beside the field. Then the site's last builds, and a rebuild button.
import type { AnswerOf } from '#server/routes.ts'
import { api, byId, h, onSubmit, signedInFor, when, type Route, showStatus, showOutcome, bodyOrShowError } from '../admin.ts'

type Setting = AnswerOf<Route<'GET /api/admin/settings'>>['settings'][number]

await signedInFor('/admin/settings/')

const shown = (s: Setting, value: unknown) =>
  value === null
    ? 'none'
    : (s.choices?.find((c) => c.value === value)?.label ?? (typeof value === 'string' ? value : JSON.stringify(value)))

/**
 * The time zones this browser knows (the server checks the choice again), with the current one kept in the list. The
 * list fills in when the field is first focused (a tap or a Tab): its 400-odd options took a phone about 100 ms to lay
 * out, the page's one long task, for a setting seldom changed.
 */
function timeZoneSelect(attributes: Record<string, string>, current: unknown): HTMLSelectElement {
  const zone = String(current)
  const option = (z: string) => new Option(z.replaceAll('_', ' '), z, false, z === zone)
  const select = h('select', attributes, option(zone)) as HTMLSelectElement
  const fill = () => select.replaceChildren(...[...new Set([...Intl.supportedValuesOf('timeZone'), zone])].sort().map(option))
  select.addEventListener('focus', fill, { once: true })
  return select
}

function input(s: Setting): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  const common = { id: `setting-${s.key}`, name: 'value', 'aria-describedby': `about-${s.key}` }
  if (s.key === 'site.timezone') return timeZoneSelect(common, s.value ?? s.default)
  if (s.choices)
    return h(
      'select',
      common,
      ...s.choices.map((c) => h('option', { value: c.value, selected: c.value === s.value }, c.label)),
    ) as HTMLSelectElement
  const value = s.value === null ? '' : String(s.value)
  // Markdown (payments.instructions) takes several lines.
  if (s.type.includes('Markdown')) return h('textarea', { ...common, rows: '4' }, value) as HTMLTextAreaElement
  if (s.minimum !== undefined)
    return h('input', {
      ...common,
      type: 'number',
      inputmode: 'numeric',
      min: String(s.minimum),
      max: String(s.maximum),
      value,
    }) as HTMLInputElement
  return h('input', { ...common, type: s.type.includes('address') ? 'url' : 'text', value }) as HTMLInputElement
}

function settingCard(s: Setting): HTMLElement {
  const field = input(s)
  const form = h(
    'form',
    { class: 'row', id: `form-${s.key.replaceAll('.', '-')}`, 'data-key': s.key, novalidate: true },
    h('label', { for: field.id }, s.label, field),
    h('button', { type: 'submit' }, 'Save'),
  ) as HTMLFormElement
  onSubmit(
    form,
    () => {
      const raw = field.value.trim()
      const value = raw === '' ? null : s.minimum !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : raw
      return api('PUT', `/api/admin/settings/${encodeURIComponent(s.key)}`, { value })
    },
    (setting) => {
      field.value = setting.value === null ? '' : String(setting.value)
      showStatus(`Saved “${s.label}”.`)
    },
    { problem: byId('status'), reset: false },
  )
  const about = `${s.description} Default: ${shown(s, s.default)}.${s.default === null ? ' Leave it empty for none.' : ' Empty it and save to go back to the default.'}`
  return h('section', { class: 'card' }, form, h('p', { class: 'muted', id: `about-${s.key}` }, about))
}

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/settings'))
  if (body) byId('settings').replaceChildren(...body.settings.map(settingCard))
}

async function build() {
  const res = await api('GET', '/api/admin/site')
  const last = res.ok ? res.body.last : null
  byId('build').textContent = !res.ok
    ? 'The build history could not be read.'
    : !last
      ? 'No build yet.'
      : `Last build ${when(last.finished_at)}: ${last.ok ? 'it worked' : 'it FAILED'}, in ${(last.duration_ms / 1000).toFixed(1)} seconds` +
        `${last.error ? ` — ${last.error}` : ''}${res.body.building ? '. A build is under way.' : '.'}`
}

byId('rebuild').addEventListener('click', async () => {
  showOutcome(await api('POST', '/api/admin/site/rebuild'), 'Rebuild asked for: the site updates in a few seconds.')
  setTimeout(build, 3000)
})
await Promise.all([load(), build()])
