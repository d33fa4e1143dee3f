// The OpenAPI document's fixed parts: its tags (one per feature, in the order the docs show them), and the headers
// and parameters declared once under components and referenced where they apply.
export type Json = Record<string, unknown>

/** One tag per feature, in the order the docs show them. */
export const TAGS: { name: string; description: string; prefixes: string[] }[] = [
  { name: 'Identity', description: 'Who the caller is and what they may do.', prefixes: ['/api/admin/whoami'] },
  {
    name: 'Sign-in',
    description: 'Browser sessions: sign in and out, a sign-in link by email, and a reset link by email for a forgotten password.',
    prefixes: ['/login', '/logout', '/api/forgot', '/api/login-link'],
  },
  { name: 'Account', description: 'Your own password, sessions and notifications.', prefixes: ['/api/admin/account', '/api/push'] },
  { name: 'Keys', description: 'Bearer API keys for scripts, shown once.', prefixes: ['/api/admin/keys'] },
  { name: 'Join form', description: 'The public join form families send.', prefixes: ['/api/join'] },
  {
    name: 'Leads',
    description: 'Join-form leads, their claims and their copies to outside targets.',
    prefixes: ['/api/admin/leads', '/api/admin/mirrors', '/api/admin/summary'],
  },
  {
    name: 'Announcements',
    description: 'Site announcements with a computed state and a live cap.',
    prefixes: ['/api/admin/announcements'],
  },
  { name: 'Nearby units', description: 'The directory of nearby units.', prefixes: ['/api/admin/nearby'] },
  { name: 'Units', description: "Meeting details of the site's own units.", prefixes: ['/api/admin/units'] },
  { name: 'Content pages', description: 'Pages leaders write in Markdown for the public site.', prefixes: ['/api/admin/pages'] },
  {
    name: 'Photos',
    description:
      'Event albums with consent: tagging, review, public marks and takedowns, the family page’s albums and the photo URLs (an event’s album itself is under Calendar).',
    prefixes: ['/api/admin/photos', '/api/admin/family/photos', '/photos'],
  },
  {
    name: 'Files',
    description: 'Forms, lists and images leaders upload, served at /files/ (images without their metadata, in web sizes).',
    prefixes: ['/api/admin/files', '/files'],
  },
  {
    name: 'Calendar',
    description:
      "Events in the CalDAV store the calendar lives in, replies to them (also by a reply link from a mail), and households' private feeds.",
    prefixes: ['/api/admin/calendar', '/api/reply', '/calendar/household'],
  },
  {
    name: 'Roster',
    description: 'Households, scouts and the yearly checklist; a family sees its own.',
    prefixes: ['/api/admin/roster', '/api/admin/family'],
  },
  {
    name: 'Money',
    description: "The ledger of what families owe and pay: entries, reversals, accounts and the year's dues.",
    prefixes: ['/api/admin/money', '/api/payments'],
  },
  {
    name: 'People',
    description: 'Accounts, roles, invites and password-reset links.',
    prefixes: ['/api/admin/people', '/api/invite', '/api/reset', '/api/setup'],
  },
  {
    name: 'Social posts',
    description: 'Posts reported by the social publisher: read, cancel, reschedule.',
    prefixes: ['/api/admin/socialposts'],
  },
  {
    name: 'Messages',
    description: 'Mail from leaders to families, its deliveries, the weekly digest and unsubscribing.',
    prefixes: ['/api/admin/messages', '/api/unsubscribe'],
  },
  { name: 'History', description: 'The action log of every write.', prefixes: ['/api/admin/history'] },
  {
    name: 'Settings',
    description: "Typed run-time settings, the state of the site and catalog, and the owner's getting-started steps.",
    prefixes: ['/api/admin/settings', '/api/admin/site', '/api/admin/catalog', '/api/admin/setup'],
  },
  { name: 'Catalog', description: 'The season catalog, read by the trading bot.', prefixes: ['/api/catalog'] },
  { name: 'Health', description: 'Whether the service works, for Docker, systemd and uptime monitors.', prefixes: ['/healthz'] },
]

export const tagOf = (path: string) => TAGS.find((t) => t.prefixes.some((p) => path === p || path.startsWith(p + '/')))?.name ?? 'Site'

export const ERROR_REF = { $ref: '#/components/schemas/Error' }

/** Headers of the contract, declared once under components and referenced where they apply. */
export const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'The id of this request in the server log: the one the client sent when well formed (1-128 of `A-Za-z0-9._-`), else a new one',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
  },
  ETag: { description: 'The version of the resource: send it back as If-Match to change it only if unchanged', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  Link: { description: 'The next page: `<…>; rel="next"` (RFC 8288), absent on the last page', schema: { type: 'string' } },
}
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })

export const PARAMETERS: Record<string, Json> = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'An id to find this request by in the server log; kept when 1-128 characters of `A-Za-z0-9._-`',
    schema: { type: 'string', maxLength: 128 },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retry safe: the same key, credential and body within 24 hours get the first answer again (with `Idempotent-Replayed: true`); the same key with another body is 422 `idempotency_key_reused`',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'The ETag you read: the change is made only if the resource is still that version, else 412',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag you have: 304 without a body when it is still current',
    schema: { type: 'string' },
  },
}
export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` })
