// GET /robots.txt: every crawler welcome on the public pages, kept out of the admin section, the API and the
// one-time-link pages; where the sitemap is.
import { siteInfo } from '../lib/data.ts'
import { PRIVATE_PATHS } from '../lib/public-pages.ts'

export async function GET() {
  const { baseUrl } = await siteInfo()
  const lines = ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`), '', `Sitemap: ${baseUrl}/sitemap.xml`, '']
  return new Response(lines.join('\n'), { headers: { 'content-type': 'text/plain; charset=utf-8' } })
}
