// Content pages leaders write in Markdown ("About us", "What it costs", "FAQ"): their shape, listing, creating,
// changing (the slug too) and deleting one; the public site builds the published ones at /pages/{slug}/.
import type { Caller } from '../auth/credential.ts'
import type { Db } from '../db/client.ts'
import { ANNOUNCEMENT_UNITS } from '../announcements/tables.ts'
import type { Executor } from '../db/database.ts'
import type { ContentPage } from './tables.ts'
import { record, unchanged, write } from '../db/write.ts'
import { conflict, notFound, unprocessable } from '../errors.ts'
import { Instant, Line, Lines, nowIso, OneOf, t, withMessage } from '../schemas.ts'
import { fieldWords, UNIT_WORDS } from '../words.ts'
import { pageDescription, renderPage } from './markdown.ts'
import { imagesIn } from '../files/site-images.ts'
import { decodeCursor, encodeCursor, NextCursor, PAGE, PageQuery, pageOf } from '../http/paging.ts'

export const PAGE_UNITS = ANNOUNCEMENT_UNITS

export const Slug = withMessage(
  t.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 60, description: 'Its address: /pages/{slug}/', examples: ['what-it-costs'] }),
  'must be lowercase letters, digits and single hyphens (e.g. what-it-costs), at most 60 characters',
)
export const SlugParams = t.Object({ slug: t.String({ maxLength: 200, examples: ['what-it-costs'] }) })

const Title = Line(120, { minLength: 1, description: 'The page heading and the menu link', examples: ['What it costs'] })
const Body = Lines(50_000, {
  description: 'Markdown; raw HTML is shown as text',
  examples: ['## Dues\n\n- $60 a year\n- Uniform: about $80'],
})
const Unit = OneOf(PAGE_UNITS, { description: "Where it is linked: the pack's page, the troop's, or the site menu (both)" })

const EXAMPLE = {
  slug: 'what-it-costs',
  title: 'What it costs',
  body: '## Dues\n\n- $60 a year\n- Uniform: about $80',
  unit: 'both',
  published: true,
  created_at: '2026-11-20T17:55:02.000Z',
  updated_at: '2026-11-21T09:12:40.000Z',
  updated_by: 'akela@example.org',
}

export const PageView = t.Object(
  {
    slug: t.String(),
    title: t.String(),
    body: t.String(),
    unit: OneOf(PAGE_UNITS),
    published: t.Boolean({ description: 'On the public site; a draft when false' }),
    created_at: Instant,
    updated_at: Instant,
    updated_by: t.String({ description: 'Who changed it last, as the action log names them' }),
  },
  { $id: 'ContentPage', additionalProperties: false, examples: [EXAMPLE] },
)

export const PageList = t.Object(
  {
    pages: t.Array(PageView, { description: 'By title' }),
    next_cursor: t.Optional({ ...NextCursor, description: 'Only when paging (`limit` or `cursor` sent): the cursor of the next page' }),
  },
  { additionalProperties: false, examples: [{ pages: [EXAMPLE] }] },
)

export const NewPage = t.Object(
  {
    slug: Slug,
    title: Title,
    body: Body,
    unit: t.Optional(Unit),
    published: t.Optional(t.Boolean({ description: 'false (a draft) when absent' })),
  },
  {
    additionalProperties: false,
    examples: [{ slug: 'what-it-costs', title: 'What it costs', body: '## Dues\n\n- $60 a year', unit: 'both' }],
  },
)

export const PageChange = t.Object(
  { slug: t.Optional(Slug), title: t.Optional(Title), body: t.Optional(Body), unit: t.Optional(Unit), published: t.Optional(t.Boolean()) },
  { additionalProperties: false, examples: [{ published: true }] },
)

export const PreviewInput = t.Object({ body: Body }, { additionalProperties: false, examples: [{ body: '## Dues\n\n- $60 a year' }] })
export const PreviewView = t.Object(
  {
    html: t.String({ description: 'The body as the public page shows it: rendered and sanitised' }),
    description: t.String({ description: 'Its meta description: the first ~155 characters of its text' }),
  },
  { additionalProperties: false, examples: [{ html: '<h3>Dues</h3>\n<ul>\n<li>$60 a year</li>\n</ul>', description: 'Dues $60 a year' }] },
)

const view = ({ id: _, published, ...page }: ContentPage) => ({ ...page, published: published === 1 })

const find = (db: Executor, slug: string) => db.selectFrom('content_pages').selectAll().where('slug', '=', slug).executeTakeFirst()

async function mustFind(db: Executor, slug: string) {
  const page = await find(db, slug)
  if (!page) throw notFound('No such page')
  return page
}

const titleOf = (title: string) => {
  const trimmed = title.trim()
  if (!trimmed) throw unprocessable('title: must not be empty')
  return trimmed
}

async function slugFree(db: Executor, slug: string) {
  if (await find(db, slug)) throw conflict(`slug: /pages/${slug}/ is taken by another page; choose another`)
}

/** The list takes `limit` and `cursor` to page; without either it is every page. */
export const PageListQuery = t.Object({ ...PageQuery })

/** A cursor's position: the last page's title and id (the list is by title, then id). */
const Position = t.Tuple([t.String(), t.Integer()])

export async function listPages(db: Executor, query: typeof PageListQuery.static) {
  const paging = query.limit !== undefined || query.cursor !== undefined
  const limit = query.limit ?? PAGE.default
  const after = query.cursor ? decodeCursor('pages', query, query.cursor, Position) : undefined
  const rows = await db
    .selectFrom('content_pages')
    .selectAll()
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb.or([eb('title', '>', after![0]), eb.and([eb('title', '=', after![0]), eb('id', '>', after![1])])])),
    )
    .orderBy('title')
    .orderBy('id')
    .$if(paging, (q) => q.limit(limit + 1))
    .execute()
  if (!paging) return { pages: rows.map(view) }
  const page = pageOf(rows, limit)
  const last = page.rows.at(-1)
  return { pages: page.rows.map(view), next_cursor: page.more && last ? encodeCursor('pages', query, [last.title, last.id]) : null }
}

export const getPage = async (db: Executor, slug: string) => view(await mustFind(db, slug))

export function createPage(db: Db, caller: Caller, input: typeof NewPage.static) {
  return write(db, async (trx) => {
    await slugFree(trx, input.slug)
    const now = nowIso()
    const page = await trx
      .insertInto('content_pages')
      .values({
        slug: input.slug,
        title: titleOf(input.title),
        body: input.body,
        unit: input.unit ?? 'both',
        published: input.published ? 1 : 0,
        created_at: now,
        updated_at: now,
        updated_by: caller.actor,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await record(
      trx,
      caller.actor,
      'pages.create',
      `“${page.title}” at /pages/${page.slug}/, for ${UNIT_WORDS[page.unit].toLowerCase()}, ${page.published ? 'published' : 'a draft'}`,
    )
    return view(page)
  })
}

/** Changes what is sent; a new slug must be free (409). Nothing different: 200 with nothing logged. */
export function changePage(db: Db, caller: Caller, slug: string, change: typeof PageChange.static) {
  return write(db, async (trx) => {
    const current = await mustFind(trx, slug)
    const next = {
      ...change,
      ...(change.title === undefined ? {} : { title: titleOf(change.title) }),
      ...(change.published === undefined ? {} : { published: change.published ? 1 : 0 }),
    }
    const changed = Object.fromEntries(Object.entries(next).filter(([k, v]) => current[k as keyof ContentPage] !== v))
    if (!Object.keys(changed).length) {
      unchanged(trx)
      return view(current)
    }
    if (changed.slug) await slugFree(trx, changed.slug as string)
    const page = await trx
      .updateTable('content_pages')
      .set({ ...changed, updated_at: nowIso(), updated_by: caller.actor })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const what =
      'published' in changed && Object.keys(changed).length === 1
        ? page.published
          ? 'published'
          : 'made a draft'
        : `changed ${fieldWords(changed)}`
    await record(trx, caller.actor, 'pages.update', `“${page.title}” (/pages/${page.slug}/): ${what}`)
    return view(page)
  })
}

export function deletePage(db: Db, caller: Caller, slug: string) {
  return write(db, async (trx) => {
    const page = await mustFind(trx, slug)
    await trx.deleteFrom('content_pages').where('id', '=', page.id).execute()
    await record(trx, caller.actor, 'pages.delete', `Deleted “${page.title}” (/pages/${page.slug}/)`)
    return view(page)
  })
}

export const previewPage = async (db: Executor, body: string) => ({
  html: renderPage(body, await imagesIn(db, body)),
  description: pageDescription(body),
})

/** The published pages for the public site, by title: for a unit, its own (not those of both, which the menu links). */
export const publishedPages = (db: Executor, unit?: 'pack' | 'troop' | 'both') => {
  let query = db.selectFrom('content_pages').select(['slug', 'title', 'body', 'unit', 'updated_at']).where('published', '=', 1)
  if (unit) query = query.where('unit', '=', unit)
  return query.orderBy('title').execute()
}
