// A content page's Markdown as safe HTML, the same at build time and in the admin preview: markdown-it with raw HTML
// off, then sanitize-html as a second fence (no script, no raw HTML, only http(s), mailto and tel links).
import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'

const markdown = new MarkdownIt({ html: false, linkify: true })

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
  ],
  allowedAttributes: { a: ['href'], ol: ['start'], th: ['style'], td: ['style'] },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['https', 'http', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // The page's title is its one h1: a "# Heading" in the body is a section of it.
  transformTags: { h1: 'h2', h2: 'h3', h3: 'h4', h4: 'h5', h5: 'h6' },
}

export const renderPage = (source: string): string => sanitizeHtml(markdown.render(source), ALLOWED)

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
