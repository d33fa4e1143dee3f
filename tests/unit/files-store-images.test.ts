// The file store (temp-then-rename, safe addresses, disk use) and the image pipeline (upright, no metadata, never upscaled).
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { webSizes, widthsFor } from '../../server/files/images.ts'
import { FileStore, newBlobId } from '../../server/files/store.ts'
import { sniff } from '../../server/files/types.ts'
import { hasGps, phonePhoto } from '../images.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'files-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('FileStore', () => {
  it('writes a blob under its kind and id, leaving no partial file, and counts its bytes', async () => {
    const store = new FileStore(dir)
    const id = newBlobId()
    await store.put('files', id, 'original', new TextEncoder().encode('hello'))
    expect(await store.file('files', id, 'original').text()).toBe('hello')
    expect(readdirSync(store.folder('files', id))).toEqual(['original'])
    expect(store.usage()).toBe(5)
    store.remove('files', id)
    expect(await store.exists('files', id, 'original')).toBe(false)
    expect(store.usage()).toBe(0)
  })

  it('refuses an address that could leave its folder', () => {
    const store = new FileStore(dir)
    expect(() => store.path('files', '..', 'original')).toThrow()
    expect(() => store.path('files', 'abc', '../x')).toThrow()
    expect(() => store.folder('../etc', 'abc')).toThrow()
  })
})

describe('webSizes', () => {
  it('makes 480/960/1600 but never wider than the image', () => {
    expect(widthsFor(4000)).toEqual([480, 960, 1600])
    expect(widthsFor(1600)).toEqual([480, 960, 1600])
    expect(widthsFor(1200)).toEqual([480, 960, 1200])
    expect(widthsFor(300)).toEqual([300])
  })

  it('turns a sideways phone photo upright and drops its EXIF, GPS and camera serial from every size', async () => {
    const photo = await phonePhoto()
    const before = await sharp(photo).metadata()
    expect(before.orientation).toBe(6)
    expect(hasGps(before.exif!)).toBe(true)
    const image = await webSizes(photo, 'image/jpeg')
    expect(image).toMatchObject({ width: 1200, height: 2000 })
    expect(image.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ['w480.webp', 480, 800],
      ['w480.jpg', 480, 800],
      ['w960.webp', 960, 1600],
      ['w960.jpg', 960, 1600],
      ['w1200.webp', 1200, 2000],
      ['w1200.jpg', 1200, 2000],
    ])
    for (const variant of image.variants) {
      const meta = await sharp(variant.bytes).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual([
        variant.mime === 'image/webp' ? 'webp' : 'jpeg',
        variant.width,
        variant.height,
      ])
      expect([meta.exif, meta.xmp, meta.iptc, meta.orientation]).toEqual([undefined, undefined, undefined, undefined])
      expect(Buffer.from(variant.bytes).includes('CamCo')).toBe(false)
    }
  })

  it('keeps transparency with a PNG fallback', async () => {
    const logo = await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer()
    expect((await webSizes(logo, 'image/png')).variants.map((v) => v.name)).toEqual(['w300.webp', 'w300.png'])
  })
})

describe('sniff', () => {
  const text = (s: string) => new TextEncoder().encode(s)
  it('reads the type from the bytes, not the name', async () => {
    expect(await sniff(await phonePhoto(), 'form.pdf')).toMatchObject({ ok: true, mime: 'image/jpeg', image: true })
    expect(await sniff(text('%PDF-1.4\n%%EOF'), 'photo.jpg')).toMatchObject({ ok: true, mime: 'application/pdf', image: false })
    expect(await sniff(text('Bring: sleeping bag, flashlight\n'), 'list.pdf')).toMatchObject({ ok: true, mime: 'text/plain' })
  })

  it('refuses SVG and HTML, however named, and unknown binaries', async () => {
    expect(await sniff(text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'a.txt')).toMatchObject({
      ok: false,
      reason: 'markup',
    })
    expect(await sniff(text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.png')).toMatchObject({
      ok: false,
      reason: 'markup',
    })
    expect(await sniff(text('\n <!DOCTYPE html><html><body>hi</body></html>'), 'a.txt')).toMatchObject({ ok: false, reason: 'markup' })
    expect(await sniff(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), 'a.pdf')).toMatchObject({
      ok: false,
      reason: 'unsupported',
    })
  })
})
