// A content page's Markdown: what it renders to, that hostile bodies come out inert, and its meta description.
import { describe, expect, it } from 'bun:test'
import { descriptionParts, pageDescription, renderPage } from '../../server/pages/markdown.ts'

describe('renderPage', () => {
  it('renders headings (under the page title), lists, links and tables', () => {
    const html = renderPage('# Dues\n\n- $60 a year\n- [Shop](https://scoutshop.example.org)\n\n| Item | Cost |\n|:--|--:|\n| Book | $15 |')
    expect(html).toContain('<h2>Dues</h2>')
    expect(html).toContain('<li>$60 a year</li>')
    expect(html).toContain('<a href="https://scoutshop.example.org">Shop</a>')
    expect(html).toContain('<td style="text-align:right">$15</td>')
    expect(renderPage('## A\n### B')).toBe('<h3>A</h3>\n<h4>B</h4>\n')
  })

  const HOSTILE = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<iframe src="https://evil.example"></iframe>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[click](vbscript:msgbox(1))',
    '![x](javascript:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '[x](//evil.example/path)',
    '<style>body{display:none}</style>',
    '<div onclick="alert(1)">x</div>',
  ]
  for (const body of HOSTILE)
    it(`leaves nothing live of ${body}`, () => {
      // Escaped text (`&lt;script&gt;`) is inert: only real tags are checked.
      for (const tag of renderPage(body).match(/<[^>]+>/g) ?? []) {
        expect(tag).toMatch(/^<\/?(p|a|em|strong)[ >]/)
        expect(tag).not.toMatch(/ on\w+=|href="(?!https?:)/i)
      }
    })

  it('shows raw HTML as text', () => {
    expect(renderPage('<b>bold</b>')).toBe('<p>&lt;b&gt;bold&lt;/b&gt;</p>\n')
  })
})

describe('pageDescription', () => {
  it('is the text without its Markdown or headings', () => {
    expect(pageDescription('# What it costs\n\nDues are **$60** a year;\nsee [the shop](https://x.example).')).toBe(
      'Dues are $60 a year; see the shop.',
    )
  })
  it('ends each block as a sentence, so list items do not run into the text', () => {
    expect(pageDescription('Bring these:\n\n- a water bottle\n- a flashlight\n\nThat is all!')).toBe(
      'Bring these: a water bottle. a flashlight. That is all!',
    )
  })
  it('cuts a long text at a word, within 155 characters', () => {
    const d = pageDescription('word '.repeat(100))
    expect(d.length).toBeLessThanOrEqual(155)
    expect(d).toEndWith('word…')
  })
})

describe('descriptionParts', () => {
  const image = {
    url: '/files/AAAAAAAAAAAAAAAAAAAAAA/map.jpg',
    width: 960,
    height: 640,
    webpSrcset: '/files/AAAAAAAAAAAAAAAAAAAAAA/sizes/w480.webp 480w, /files/AAAAAAAAAAAAAAAAAAAAAA/sizes/w960.webp 960w',
    fallbackSrcset: '/files/AAAAAAAAAAAAAAAAAAAAAA/sizes/w480.jpg 480w, /files/AAAAAAAAAAAAAAAAAAAAAA/sizes/w960.jpg 960w',
  }
  const images = new Map([['AAAAAAAAAAAAAAAAAAAAAA', image]])

  it('keeps a description without an image line exactly as written, Markdown-looking text included', () => {
    const text = 'Meet at 6.\n- bring $5\n**not bold**'
    expect(descriptionParts(text, images)).toEqual([{ text }])
  })

  it('shows a line of an uploaded public image as a picture with its size, and drops other images', () => {
    const parts = descriptionParts(
      `Meet here:\n![Map to the camp](${image.url})\n![x](https://evil.example/x.png)\n![](${image.url})\nBring water.`,
      images,
    )
    expect(parts.map((p) => ('text' in p ? p.text : 'picture'))).toEqual(['Meet here:', 'picture', 'Bring water.'])
    const html = (parts[1] as { html: string }).html
    expect(html).toContain('alt="Map to the camp"')
    expect(html).toContain('width="960" height="640"')
    expect(html).toContain(`srcset="${image.fallbackSrcset}"`)
  })
})
