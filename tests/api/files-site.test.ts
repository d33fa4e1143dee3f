// Files on the built public site (issue 50, items 2–3): the logo in the header and the share image in every page's
// link-preview tags (settings site.logo, site.share_image); Markdown images in content pages only from this site's
// public uploads, with alt text, srcset and width/height; file links kept; the preview renders the same.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import sharp from 'sharp'
import { expectDetail, PUBLIC_PAGES, ROLES, startServerWithSite, type TestServer } from '../helpers.ts'
import { phonePhoto } from '../images.ts'

let s: TestServer
let leader: { cookie: string }
let owner: { cookie: string }
beforeAll(async () => {
  s = await startServerWithSite({ PUBLIC_BASE_URL: 'https://scouts.example.org' })
  leader = await s.as(ROLES.packLeader)
  owner = await s.as(ROLES.owner)
}, 120_000)
afterAll(() => s.stop())

async function upload(bytes: Uint8Array, name: string, visibility = 'public') {
  const body = new FormData()
  body.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  body.set('unit', 'pack')
  body.set('visibility', visibility)
  const res = await s.req('POST', '/api/admin/files', { cookie: leader.cookie, body })
  expect(res.status).toBe(201)
  return res.body as { id: string; url: string; width: number; height: number; sizes: { url: string; width: number; mime: string }[] }
}

const setSetting = (key: string, value: unknown) => s.req('PUT', `/api/admin/settings/${key}`, { cookie: owner.cookie, json: { value } })
const meta = (html: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(html)?.[1] ?? null

describe('site.logo and site.share_image', () => {
  it('refuses an id that is no uploaded public image (422)', async () => {
    const pdf = await upload(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), 'form.pdf')
    const members = await upload(await phonePhoto(), 'members.jpg', 'members')
    expect((await setSetting('site.logo', 'AAAAAAAAAAAAAAAAAAAAAA')).body.detail).toBe('value: no uploaded file has this id')
    expect((await setSetting('site.logo', pdf.id)).body.detail).toContain('must be a public image')
    expect((await setSetting('site.share_image', members.id)).body.detail).toContain('must be a public image')
    expect((await s.req('GET', '/api/admin/settings/site.logo', { cookie: owner.cookie })).body.value).toBeNull()
    expectDetail(await setSetting('site.logo', 'not an id'), 422)
  })

  it('puts the logo in the header and the share image in the Open Graph and Twitter tags of every public page', async () => {
    const logo = await upload(
      await sharp({ create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 60, b: 120, alpha: 0.5 } } })
        .png()
        .toBuffer(),
      'logo.png',
    )
    const share = await upload(await phonePhoto(), 'campfire.jpg')
    expect((await setSetting('site.logo', logo.id)).status).toBe(200)
    expect((await setSetting('site.share_image', share.id)).status).toBe(200)
    expect((await s.site!.settled())?.ok).toBe(true)
    for (const page of PUBLIC_PAGES) {
      const html = (await s.req('GET', page)).text
      expect(meta(html, 'og:image'), page).toBe(`https://scouts.example.org${share.url}`)
      expect(meta(html, 'twitter:image'), page).toBe(`https://scouts.example.org${share.url}`)
      expect(meta(html, 'twitter:card'), page).toBe('summary_large_image')
      expect([meta(html, 'og:image:width'), meta(html, 'og:image:height')], page).toEqual(['1200', '2000'])
    }
    const home = (await s.req('GET', '/')).text
    const img = /<a class="brand" href="\/"[^>]*>\s*<img ([^>]*)>/.exec(home)?.[1] ?? ''
    expect(img).toContain(`src="${logo.url}"`)
    expect(img).toContain('width="400"')
    expect(img).toContain('height="200"')
    expect(img).toContain('alt=""')
    // What the tags point at is served, as an image a link preview can read.
    const served = await fetch(s.url + share.url)
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg'])
  })
})

describe('Markdown images in content pages', () => {
  it('shows uploaded public images with alt, srcset and size; drops others; keeps file links', async () => {
    const photo = await upload(await phonePhoto(), 'campout.jpg')
    const hidden = await upload(await phonePhoto(), 'hidden.jpg', 'members')
    const slip = await upload(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), 'slip.pdf')
    const body = [
      `![Scouts at the campfire](${photo.url})`,
      `![](${photo.url})`,
      '![Tracker](https://evil.example/pixel.png)',
      `![Members only](${hidden.url})`,
      `![Outside](//evil.example${photo.url})`,
      `[Permission slip](${slip.url})`,
    ].join('\n\n')
    const res = await s.req('POST', '/api/admin/pages', {
      cookie: leader.cookie,
      json: { slug: 'campout', title: 'Campout', body, unit: 'pack', published: true },
    })
    expect(res.status).toBe(201)
    const preview = await s.req('POST', '/api/admin/pages/preview', { cookie: leader.cookie, json: { body } })
    expect((await s.site!.settled())?.ok).toBe(true)
    const page = (await s.req('GET', '/pages/campout/')).text
    for (const html of [page, preview.body.html]) {
      const imgs = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('class="logo"'))
      expect(imgs).toHaveLength(1)
      expect(imgs[0]).toContain(`src="${photo.url}"`)
      expect(imgs[0]).toContain('alt="Scouts at the campfire"')
      expect(imgs[0]).toContain('width="1200" height="2000"')
      const fallbacks = photo.sizes.filter((z) => z.mime === 'image/jpeg').map((z) => `${z.url} ${z.width}w`)
      expect(imgs[0]).toContain(`srcset="${fallbacks.join(', ')}"`)
      expect(html).toContain('<source type="image/webp"')
      expect(html).not.toContain('evil.example/pixel')
      expect(html).not.toContain(hidden.id)
      expect(html).toContain(`<a href="${slip.url}">Permission slip</a>`)
    }
  })
})
