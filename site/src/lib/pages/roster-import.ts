// Roster import page: reads the chosen file in the browser, sends it for a preview, shows what it would add and
// change, the bad rows by line and the columns not kept, and applies it on one tap.
import { api, byId, h, onSubmit, showError, signedInFor, when, type Route } from '../admin.ts'
import type { AnswerOf } from '#server/routes.ts'

await signedInFor('/admin/roster/')

type Preview = AnswerOf<Route<'POST /api/admin/roster/imports'>>
const form = byId<HTMLFormElement>('import-form')
const done = byId('import-done')
let current: Preview | null = null

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const tally = (rows: { action: string }[], what: string) =>
  `${plural(rows.filter((r) => r.action === 'create').length, `new ${what}`)}, ${rows.filter((r) => r.action === 'update').length} to update, ${rows.filter((r) => r.action === 'unchanged').length} already as the file says`

function show(p: Preview) {
  current = p
  byId('preview-counts').textContent = `Households: ${tally(p.households, 'household')}. Scouts: ${tally(p.scouts, 'scout')}.`
  byId('bad-section').hidden = !p.bad_rows.length
  byId('bad-rows').replaceChildren(...p.bad_rows.map((b) => h('li', {}, h('strong', {}, `Line ${b.line}: `), b.reason)))
  const notes = [
    ...p.warnings.map((w) => (w.line ? `Line ${w.line}: ${w.message}` : w.message)),
    ...(p.new_dens.length ? [`New dens and patrols: ${p.new_dens.map((d) => `${d.den} (${d.unit})`).join(', ')}`] : []),
  ]
  byId('warn-section').hidden = !notes.length
  byId('warnings').replaceChildren(...notes.map((n) => h('li', {}, n)))
  byId('preview-households').replaceChildren(
    ...p.households.map((hh, i) =>
      h(
        'li',
        {},
        h('span', { class: 'badge' }, hh.action === 'create' ? 'new' : hh.action === 'update' ? 'update' : 'same'),
        ` ${hh.parent_name}${hh.email ? ` · ${hh.email}` : ''}: `,
        p.scouts
          .filter((sc) => sc.household === i)
          .map((sc) => `${sc.first_name} ${sc.last_name ?? ''} (${sc.unit}${sc.den ? `, ${sc.den}` : ''})`)
          .join('; '),
      ),
    ),
  )
  byId('expires').textContent = `This preview can be imported until ${when(p.expires_at)}.`
  const apply = byId<HTMLButtonElement>('apply')
  apply.disabled = !p.scouts.some((sc) => sc.action !== 'unchanged') && !p.households.some((hh) => hh.action !== 'unchanged')
  apply.textContent = apply.disabled ? 'Nothing to import' : 'Import these'
  byId('preview').hidden = false
  byId('preview-title').focus()
}

onSubmit(
  form,
  async (data) => {
    done.hidden = true
    const file = data.get('file') as File
    const unit = String(data.get('unit') ?? '') as 'pack' | 'troop' | ''
    return api('POST', '/api/admin/roster/imports', { csv: await file.text(), ...(unit ? { unit } : {}) })
  },
  show,
  { reset: false },
)

byId('apply').addEventListener('click', async () => {
  if (!current) return
  const res = await api('POST', `/api/admin/roster/imports/${current.id}/apply`)
  if (!res.ok) return showError(res, byId('import-form-error'))
  const r = res.body
  byId('preview').hidden = true
  current = null
  done.replaceChildren(
    `Imported: ${plural(r.created.households, 'household')} and ${plural(r.created.scouts, 'scout')} added, `,
    `${plural(r.updated.households, 'household')} and ${plural(r.updated.scouts, 'scout')} updated`,
    r.skipped ? `, ${plural(r.skipped, 'bad row')} left out. ` : '. ',
    h('a', { href: '/admin/roster/' }, 'Open the roster'),
  )
  done.hidden = false
  done.focus()
})
