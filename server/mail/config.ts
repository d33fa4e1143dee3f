// Mail configuration from the environment: SMTP_URL (smtp:// with STARTTLS, smtps:// with TLS from the start, user
// and password in the URL) and MAIL_FROM; mail is configured when SMTP_URL is set.
import addressparser from 'nodemailer/lib/addressparser'

export interface MailConfig {
  /** The relay as nodemailer takes it. */
  url: string
  /** Who mail comes from: `Pack 123 <pack123@example.org>`. */
  from: string
  /** host:port, for messages (never the password). */
  relay: string
  /** A plain smtp:// relay that is not on this machine must offer STARTTLS: its password never crosses a network in clear. */
  requireTls: boolean
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/** The mail configuration, or null when SMTP_URL is not set; throws a plain sentence for a bad value. */
export function mailConfig(vars: Record<string, string | undefined>): MailConfig | null {
  if (!vars.SMTP_URL) return null
  let url: URL
  try {
    url = new URL(vars.SMTP_URL)
  } catch {
    throw new Error('SMTP_URL must look like smtp://user:password@smtp.example.org:587 or smtps://…:465')
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// and name a host, got ${url.protocol}//${url.hostname}`)
  const user = decodeURIComponent(url.username)
  const from = vars.MAIL_FROM || (user.includes('@') ? user : '')
  if (!from) throw new Error('MAIL_FROM is needed with SMTP_URL, for example MAIL_FROM="Pack 123 <pack123@example.org>"')
  const parsed = addressparser(from, { flatten: true })
  // One address, written once: no line breaks (a header of its own) and no second address hiding in the name.
  if (
    /[\u0000-\u001f\u007f]/.test(from) ||
    from.split('@').length !== 2 ||
    parsed.length !== 1 ||
    !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(parsed[0].address)
  )
    throw new Error(`MAIL_FROM must be one address such as "Pack 123 <pack123@example.org>", got ${from}`)
  const port = url.port || (url.protocol === 'smtps:' ? '465' : '587')
  return {
    url: url.href,
    from,
    relay: `${url.hostname}:${port}`,
    requireTls: url.protocol === 'smtp:' && !LOOPBACK.test(url.hostname) && !url.searchParams.has('requireTLS'),
  }
}

/**
 * Mail providers (Gmail, Yahoo) show and use a one-click unsubscribe (RFC 8058) only for an https link, and the links
 * are built on PUBLIC_BASE_URL: with mail set up and that address not https, the sentence saying so; else null.
 */
export function unsubscribeWarning(mailConfigured: boolean, publicBaseUrl: string): string | null {
  if (!mailConfigured || new URL(publicBaseUrl).protocol === 'https:') return null
  return 'Mail providers need an https unsubscribe link: set PUBLIC_BASE_URL to the https address of the site'
}
