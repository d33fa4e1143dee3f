// A leader's Markdown as mail HTML: markdown-it with raw HTML off, then sanitize-html as a second fence, keeping only
// what a mail reader shows well (paragraphs, emphasis, lists, headings, quotes, links).
import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true })

const ALLOWED = {
  allowedTags: ['p', 'br', 'strong', 'em', 's', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'a', 'code', 'pre', 'hr'],
  allowedAttributes: { a: ['href'], ol: ['start'] },
  allowedSchemes: ['https', 'http', 'mailto', 'tel'],
}

export const renderMarkdown = (source: string): string => sanitizeHtml(markdown.render(source), ALLOWED)

/** Text shown literally inside Markdown (an event's title in the digest): its punctuation cannot start a link or a list. */
export const markdownText = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&')
