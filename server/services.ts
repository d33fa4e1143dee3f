// What the service hands every route handler and background job: the database, the environment and the running
// parts main.ts composes. It names features' types, so a low layer imports it as a type only.
import type { AddressRules } from './auth/address.ts'
import type { Throttle } from './auth/login-throttle.ts'
import type { Outbound } from './http/outbound.ts'
import type { MailSender } from './mail/sender.ts'
import type { CalendarStore } from './calendar/calendar-store.ts'
import type { CalendarWatch } from './calendar/watch.ts'
import type { CatalogLoader } from './catalog/loader.ts'
import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import type { RateLimiter, WindowLimiter } from './rate-limit.ts'
import type { SiteBuilder } from './site/builder.ts'

export interface Services {
  db: Db
  env: Readonly<Env>
  /** Asks for a site rebuild after a write that changes public data. */
  publicDataChanged(): void
  /** Calls to addresses that came from settings or ingested data (the spreadsheet, the publisher). */
  outbound: Outbound
  /** Who a request's client is (TRUST_PROXY) and whether that is the LAN. */
  addresses: AddressRules
  loginThrottle: Throttle
  /** Codes for a second factor, per person, with a longer wait than passwords. */
  secondFactorThrottle: Throttle
  /** "Forgot your password?" asks an hour, per email and per client (each one mails a link). */
  forgotLimits: { email: RateLimiter; client: RateLimiter }
  /** "Email me a sign-in link" asks an hour, per email and per client, as for forgotLimits. */
  loginLinkLimits: { email: RateLimiter; client: RateLimiter }
  /** /healthz asks per address from outside the LAN (a monitor on the LAN is not counted). */
  healthLimiter: WindowLimiter
  /** Public join-form posts per address. */
  joinLimiter: RateLimiter
  /** Reply links from mail (/api/reply/<token>, read and answer) per address. */
  replyLimiter: RateLimiter
  /** Passkey sign-ins started per address (each keeps a challenge for five minutes). */
  passkeyLimiter: RateLimiter
  /** Delivers the mail outbox; null when mail is not set up (SMTP_URL). Wake it after a write that queued mail. */
  mail: MailSender | null
  /** Copies a new lead to the configured targets in the background. */
  mirrorLead(leadId: number): void
  site: SiteBuilder | null
  catalog: CatalogLoader | null
  /** The CalDAV collection, when CALDAV_* are set. */
  calendar: CalendarStore
  /** What the service last heard from the calendar store (the health check reads it); null when nothing polls it. */
  calendarWatch: CalendarWatch | null
}
