// A content page's Markdown as safe HTML, the same at build time and in the admin preview: markdown-it with raw HTML
// off, then sanitize-html as a second fence (no script, no raw HTML, only http(s), mailto and tel links; images
// only this site's uploaded public images, with their alt text, sizes and srcset).
import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'
import type { SiteImage } from '../files/site-images.ts'

const markdown = new MarkdownIt({ html: false, linkify: true })

/** The images a text may show, by file id (files/site-images.ts `imagesIn`); every other image is dropped. */
export type PageImages = ReadonlyMap<string, SiteImage>

const OWN_IMAGE = /^\/files\/([A-Za-z0-9_-]{22})\/[^/?#]+$/

/** Wide enough for the reading column (about 40rem), the whole screen below it. */
const SIZES = '(max-width: 42rem) 100vw, 40rem'

const attr = (value: string | number) => markdown.utils.escapeHtml(String(value))

// `![alt](/files/{id}/{name})` of an uploaded public image becomes a <picture> with WebP and JPEG sizes and its
// width and height (no layout shift); an image from elsewhere, without alt text, or not a public image renders nothing.
markdown.renderer.rules.image = (tokens, idx, _options, env) => {
  const token = tokens[idx]
  const alt = token.content.trim()
  const id = OWN_IMAGE.exec(String(token.attrGet('src') ?? ''))?.[1]
  const image = id ? (env as { images?: PageImages } | undefined)?.images?.get(id) : undefined
  if (!image || !alt) return ''
  return (
    `<picture><source type="image/webp" srcset="${attr(image.webpSrcset)}" sizes="${SIZES}" />` +
    `<img src="${attr(image.url)}" srcset="${attr(image.fallbackSrcset)}" sizes="${SIZES}" width="${image.width}" height="${image.height}" alt="${attr(alt)}" loading="lazy" decoding="async" /></picture>`
  )
}

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    's',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'a',
    'code',
    'pre',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'picture',
    'source',
    'img',
  ],
  allowedAttributes: {
    a: ['href'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
    source: ['type', 'srcset', 'sizes'],
    img: ['src', 'srcset', 'sizes', 'width', 'height', 'alt', 'loading', 'decoding'],
  },
  allowedSchemesByTag: { img: [] },
  // The second fence for images: only this site's /files/, with alt text, as the renderer above writes them.
  exclusiveFilter: (frame) =>
    (frame.tag === 'img' && !(OWN_IMAGE.test(frame.attribs.src ?? '') && frame.attribs.alt)) ||
    (frame.tag === 'source' && !/^(\/files\/[A-Za-z0-9_-]{22}\/sizes\/[\w.-]+ \d+w(, )?)+$/.test(frame.attribs.srcset ?? '')),
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['https', 'http', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // The page's title is its one h1: a "# Heading" in the body is a section of it.
  transformTags: { h1: 'h2', h2: 'h3', h3: 'h4', h4: 'h5', h5: 'h6' },
}

/** The page's HTML; `images` are the uploaded public images it may show (none by default). */
export const renderPage = (source: string, images: PageImages = new Map()): string =>
  sanitizeHtml(markdown.render(source, { images }), ALLOWED)

/**
 * The page's text without its Markdown or its headings, each block ended as a sentence, cut at a word to about `max`
 * characters: its meta description.
 */
export function pageDescription(source: string, max = 155): string {
  const words = markdown
    .parse(source, {})
    .filter((token, i, tokens) => token.type === 'inline' && tokens[i - 1]?.type !== 'heading_open')
    .map((token) =>
      token
        .children!.map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type.endsWith('break') ? ' ' : ''))
        .join('')
        .trim(),
    )
    .filter(Boolean)
    .map((block) => (/[.!?:…]$/.test(block) ? block : `${block}.`))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (words.length <= max) return words
  const cut = words.slice(0, max - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,;:.]+$/, '')}…`
}
