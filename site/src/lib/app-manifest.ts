// The web app manifest and its icons: the site's name, one start page for families and one for leaders (two
// manifests, docs/decisions/0154), and the icons of app-icons.ts.
import { BACKGROUND, ICONS, THEME_COLOR } from './app-icons.ts'
import { siteInfo } from './data.ts'

/** The manifest of the app a family (`/family/`) or a leader (`/admin/`) adds to their home screen. */
export async function appManifest(start: '/family/' | '/admin/') {
  const { name, description } = await siteInfo()
  return {
    id: start,
    name,
    short_name: name.length > 12 ? name.split(/\s+/)[0].slice(0, 12) : name,
    description,
    start_url: start,
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND,
    icons: ICONS.filter((i) => i.purpose).map((i) => ({
      src: `/icons/${i.file}`,
      sizes: `${i.size}x${i.size}`,
      type: 'image/png',
      purpose: i.purpose!,
    })),
  }
}

export const manifestResponse = async (start: '/family/' | '/admin/') =>
  new Response(JSON.stringify(await appManifest(start), null, 2), { headers: { 'content-type': 'application/manifest+json' } })
