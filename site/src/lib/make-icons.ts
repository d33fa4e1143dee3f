// Makes the app's icons (app-icons.ts) from the site's mark: `npx bun site/src/lib/make-icons.ts`, after the mark
// changes. The PNGs are kept in site/public/icons/: sharp cannot run inside the site build, whose bundle lives in the
// build's output folder, away from node_modules (docs/decisions/0154).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { ICONS, THEME_COLOR } from './app-icons.ts'

const PUBLIC = path.join(import.meta.dir, '..', '..', 'public')
const MARK = readFileSync(path.join(PUBLIC, 'favicon.svg'))

/**
 * One icon as PNG bytes. A maskable icon is cut to a circle or a rounded square by the phone: the mark sits inside the
 * middle 60% (the safe zone is 80%) on the theme colour, so nothing of it is cut off.
 */
export async function iconPng(icon: (typeof ICONS)[number]): Promise<Buffer> {
  const inner = icon.purpose === 'maskable' ? Math.round(icon.size * 0.6) : icon.size
  const mark = await sharp(MARK, { density: 72 * Math.ceil(inner / 64) })
    .resize(inner, inner)
    .png()
    .toBuffer()
  if (icon.purpose !== 'maskable') return mark
  return sharp({ create: { width: icon.size, height: icon.size, channels: 4, background: THEME_COLOR } })
    .composite([{ input: mark, gravity: 'center' }])
    .png()
    .toBuffer()
}

if (import.meta.main) {
  mkdirSync(path.join(PUBLIC, 'icons'), { recursive: true })
  for (const icon of ICONS) writeFileSync(path.join(PUBLIC, 'icons', icon.file), await iconPng(icon))
}
