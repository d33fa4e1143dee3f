// Content pages: the list with a published switch and delete, one form for a new page or an edit (the slug follows
// the title until it is typed), and a preview the server renders exactly as the site build does.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { UNIT_WORDS } from '#server/words.ts'
import {
  api,
  byId,
  h,
  onSubmit,
  signedInFor,
  when,
  type Route,
  showStatus,
  showError,
  showOutcomeRedrawn,
  bodyOrShowError,
} from '../admin.ts'

type Page = AnswerOf<Route<'GET /api/admin/pages'>>['pages'][number]

await signedInFor('/admin/pages/')
const form = byId<HTMLFormElement>('page-form')
const field = <E extends HTMLElement = HTMLInputElement>(name: string) => form.elements.namedItem(name) as unknown as E
/** The page being edited; null while writing a new one. */
let editing: Page | null = null
let slugTyped = false

const slugOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
const showPath = () => (byId('slug-path').textContent = `/pages/${field('slug').value || '…'}/`)

field('title').addEventListener('input', () => {
  if (!slugTyped && !editing) field('slug').value = slugOf(field('title').value)
  showPath()
})
field('slug').addEventListener('input', () => {
  slugTyped = true
  showPath()
})

function open(page: Page | null) {
  editing = page
  slugTyped = false
  form.reset()
  byId('page-form-title').textContent = page ? `Edit “${page.title}”` : 'New page'
  if (page) {
    field('title').value = page.title
    field('slug').value = page.slug
    field<HTMLSelectElement>('unit').value = page.unit
    field<HTMLTextAreaElement>('body').value = page.body
    field('published').checked = page.published
  }
  showPath()
  byId('preview').hidden = true
  form.hidden = false
  field('title').focus()
}

function close() {
  form.hidden = true
  byId('preview').hidden = true
  byId('new-page').focus()
}

byId('new-page').addEventListener('click', () => open(null))
byId('cancel-edit').addEventListener('click', close)

byId('preview-button').addEventListener('click', async () => {
  const res = await api('POST', '/api/admin/pages/preview', { body: field<HTMLTextAreaElement>('body').value })
  if (!res.ok) return showError(res)
  const article = byId('preview-page')
  article.replaceChildren(h('h2', { class: 'preview-title' }, field('title').value))
  // The server's answer is sanitised already: the same HTML the public page will hold.
  article.insertAdjacentHTML('beforeend', res.body.html)
  byId('preview-description').textContent = `Search engines show: “${res.body.description}”`
  byId('preview').hidden = false
  byId('preview-title').scrollIntoView()
})

onSubmit(
  form,
  (data) => {
    const page = {
      title: String(data.get('title')),
      slug: String(data.get('slug')),
      unit: String(data.get('unit')) as BodyOf<Route<'POST /api/admin/pages'>>['unit'],
      body: String(data.get('body')),
      published: data.get('published') === 'on',
    }
    return editing ? api('PATCH', `/api/admin/pages/${editing.slug}`, page) : api('POST', '/api/admin/pages', page)
  },
  async (page) => {
    close()
    await load()
    showStatus(`Saved “${page.title}”${page.published ? `; it shows at /pages/${page.slug}/ in a few seconds` : ' as a draft'}.`)
  },
)

async function setPublished(page: Page, published: boolean) {
  const res = await api('PATCH', `/api/admin/pages/${page.slug}`, { published })
  const said = published ? `“${page.title}” is published; the site updates in a few seconds.` : `“${page.title}” is a draft again.`
  await showOutcomeRedrawn(res, said, load)
}

async function remove(page: Page) {
  if (!confirm(`Delete “${page.title}”? It leaves the public site.`)) return
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/pages/${page.slug}`), `Deleted “${page.title}”.`, load)
}

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/pages'))
  if (!body) return
  const list = byId('pages')
  list.replaceChildren(
    ...body.pages.map((p) =>
      h(
        'li',
        { class: 'card', 'data-page': p.slug },
        h('h3', {}, p.title),
        h(
          'p',
          {},
          h('span', { class: `badge ${p.published ? 'active' : 'draft'}` }, p.published ? 'published' : 'draft'),
          ` for ${UNIT_WORDS[p.unit].toLowerCase()} · `,
          p.published ? h('a', { href: `/pages/${p.slug}/` }, `/pages/${p.slug}/`) : `/pages/${p.slug}/`,
        ),
        h('p', { class: 'muted' }, `Changed ${when(p.updated_at)} by ${p.updated_by}`),
        h(
          'label',
          { class: 'inline-check' },
          h('input', {
            type: 'checkbox',
            checked: p.published,
            onchange: (e) => setPublished(p, (e.currentTarget as HTMLInputElement).checked),
          }),
          `Published`,
        ),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', class: 'secondary', onclick: () => open(p) }, `Edit`),
          h('button', { type: 'button', class: 'danger', onclick: () => remove(p) }, `Delete`),
        ),
      ),
    ),
  )
  if (!body.pages.length) list.append(h('li', {}, 'No pages yet.'))
}
await load()
