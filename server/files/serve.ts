// Serving /files/{id}/{name} and its sizes: who may open a file, and the headers that keep a download a download.
import type { PersonInfo } from '../auth/person.ts'
import type { Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { signedInCaller } from '../photos/signed-in.ts'
import type { Services } from '../services.ts'
import { findFile, sizesOf } from './files.ts'
import type { FileStore } from './store.ts'
import type { FileRow } from './tables.ts'

/**
 * A public file opens for anyone; a members-only one for a signed-in person of its unit: an admin or owner, anyone
 * with a membership in it (any membership for a file of both units), or a family account whose household has a
 * scout in it.
 */
export async function mayOpen(db: Executor, person: PersonInfo | null, row: Pick<FileRow, 'visibility' | 'unit'>): Promise<boolean> {
  if (row.visibility === 'public') return true
  if (!person || person.disabled) return false
  if (person.global_role) return true
  if (person.units.some((u) => row.unit === 'both' || u.slug === row.unit)) return true
  const scout = await db
    .selectFrom('household_people')
    .innerJoin('households', 'households.id', 'household_people.household_id')
    .innerJoin('scouts', 'scouts.household_id', 'households.id')
    .innerJoin('units', 'units.id', 'scouts.unit_id')
    .select('scouts.id')
    .where('household_people.person_id', '=', person.id)
    .where('households.active', '=', 1)
    .$if(row.unit !== 'both', (q) => q.where('units.slug', '=', row.unit as 'pack' | 'troop'))
    .executeTakeFirst()
  return scout !== undefined
}

/** The same answer for an unknown file, a wrong name and a file the caller may not open: nothing to learn from it. */
const noSuchFile = () => notFound('No such file')

/**
 * Answers one blob of a file the caller may open: `size` names one of an image's web sizes (`w960.webp`), else the
 * file itself at its name. Blobs never change under an id, so the ETag is their hash and a match answers 304.
 * /files/ is outside /api/admin, where the edge reads credentials: the session cookie alone says who asks (the links
 * are on the family pages), and a session whose second factor is overdue is nobody here (signed-in.ts).
 */
export async function serveFile(
  services: Pick<Services, 'db' | 'env' | 'addresses' | 'loginThrottle'>,
  store: FileStore,
  request: Request,
  id: string,
  at: { name: string } | { size: string },
): Promise<Response> {
  const db = services.db
  const row = await findFile(db, id)
  const person = row?.visibility === 'members' ? ((await signedInCaller(services, request))?.person ?? null) : null
  if (!row || !(await mayOpen(db, person, row))) throw noSuchFile()
  const sizes = sizesOf(row)
  let blob: { name: string; mime: string; sha256: string }
  if ('size' in at) {
    const size = sizes.find((s) => s.name === at.size)
    if (!size) throw noSuchFile()
    blob = size
  } else {
    if (at.name !== row.name) throw noSuchFile()
    blob = { name: sizes.length ? sizes[sizes.length - 1].name : 'original', mime: row.mime, sha256: row.sha256 }
  }
  const etag = `"${blob.sha256.slice(0, 32)}"`
  const image = row.mime.startsWith('image/')
  const headers: Record<string, string> = {
    'content-type': row.mime === 'text/plain' ? 'text/plain; charset=utf-8' : blob.mime,
    'x-content-type-options': 'nosniff',
    // Nothing served here is a page: even a file a browser might render runs no script and loads nothing.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'cache-control': row.visibility === 'public' ? 'public, max-age=3600' : 'private, no-cache',
    etag,
    'content-disposition': image
      ? `inline; filename="${row.name}"`
      : `attachment; filename="${row.name}"; filename*=UTF-8''${encodeURIComponent(row.name)}`,
  }
  if (
    request.headers
      .get('if-none-match')
      ?.split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === etag)
  )
    return new Response(null, { status: 304, headers })
  const file = store.file('files', row.id, blob.name)
  if (!(await file.exists())) throw noSuchFile()
  return new Response(file, { headers })
}
