// GET /sitemap.xml: the public pages worth indexing (the fixed ones, the published content pages, and the photos page
// once there are public photos), at the address the site is served from (PUBLIC_BASE_URL).
import { db, photoAlbums, siteInfo } from '../lib/data.ts'
import { INDEXED_PAGES } from '../lib/public-pages.ts'
import { publishedPages } from '#server/pages/pages.ts'

export async function GET() {
  const { baseUrl } = await siteInfo()
  const pages = [
    ...INDEXED_PAGES,
    ...((await photoAlbums()).length ? ['/albums/'] : []),
    ...(await publishedPages(db)).map((p) => `/pages/${p.slug}/`),
  ]
  const urls = pages.map((page) => `  <url><loc>${new URL(page, `${baseUrl}/`).href}</loc></url>`).join('\n')
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(xml, { headers: { 'content-type': 'application/xml; charset=utf-8' } })
}
