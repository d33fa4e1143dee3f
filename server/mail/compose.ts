// Mail the service writes itself, as a plain-text and an HTML part made from the same paragraphs: the unit's name at
// the top, a button for the one link, and a footer saying why the reader gets it.
import type { Executor } from '../db/database.ts'
import { getSetting } from '../settings/registry.ts'
import { renderMarkdown } from './markdown.ts'

export interface Letter {
  subject: string
  /** Paragraphs of plain text, before the link. */
  paragraphs: string[]
  /** A body written in Markdown (a leader's message, the digest): the text part carries it as written. */
  markdown?: string
  /** The plain-text part of `markdown` when the service wrote it with escapes and marks a reader should not see. */
  text?: string
  link?: { label: string; url: string }
  /** Paragraphs after the link. */
  after?: string[]
  /** Why the reader gets this mail, in one sentence. */
  why: string
  /** The reader's unsubscribe page, named in the footer. */
  unsubscribe?: string
}

const escape = (text: string) => Bun.escapeHTML(text)

/** The two parts of a letter, signed with the site's name. */
export async function compose(db: Executor, letter: Letter): Promise<{ subject: string; text: string; html: string }> {
  const site = await getSetting(db, 'site.name')
  const text = [
    ...letter.paragraphs,
    ...(letter.text ? [letter.text.trim()] : letter.markdown ? [letter.markdown.trim()] : []),
    ...(letter.link ? [`${letter.link.label}:\n${letter.link.url}`] : []),
    ...(letter.after ?? []),
    `— ${site}`,
    `--\n${letter.why}` + (letter.unsubscribe ? `\nTo stop these mails: ${letter.unsubscribe}` : ''),
  ].join('\n\n')
  const para = (p: string) => `<p style="margin:0 0 16px">${escape(p)}</p>`
  const button = letter.link
    ? `<p style="margin:24px 0"><a href="${escape(letter.link.url)}" style="background:#003f87;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escape(letter.link.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555">Or open this address: ${escape(letter.link.url)}</p>`
    : ''
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#222;max-width:600px;margin:0 auto;padding:16px">` +
    `<p style="margin:0 0 24px;font-weight:bold;color:#003f87">${escape(site)}</p>` +
    letter.paragraphs.map(para).join('') +
    (letter.markdown ? renderMarkdown(letter.markdown) : '') +
    button +
    (letter.after ?? []).map(para).join('') +
    `<hr style="border:0;border-top:1px solid #ddd;margin:24px 0"><p style="font-size:13px;color:#555;margin:0">${escape(letter.why)}` +
    (letter.unsubscribe ? ` <a href="${escape(letter.unsubscribe)}" style="color:#555">Stop these mails</a>` : '') +
    `</p>` +
    `</body></html>`
  return { subject: letter.subject, text, html }
}
