// The one role → capability matrix, and the rules that derive a caller's capabilities from it.
/** Every capability, with what it lets its holder do in words (the admin pages show these; keys show both). */
export const CAPABILITY_WORDS = {
  'apikeys:own': 'Make API keys for your own scripts',
  'leads:read': 'See and claim leads from the join form',
  'announcements:write': 'Publish and take down announcements',
  'nearby:write': 'Keep the nearby units directory',
  'unit:write_own': "Change your units' meeting day, time and place",
  'calendar:write': 'Add, change and delete calendar events',
  'pages:write': "Write the public site's content pages",
  'messages:send': 'Send mail to the families and leaders of your units',
  'account:self': 'Your own account and family page',
  'roster:write': 'Keep the roster: households, scouts, dues and health forms',
  'money:write': "Keep the money ledger of your units' families: charges, payments, dues",
  'people:invite_leader': 'Invite leaders and families, and link family accounts',
  'people:invite_admin': 'Invite admins and give password-reset links',
  'people:manage': "Disable people and change anyone's roles",
  'socialposts:read': 'See, cancel and reschedule social posts',
  'socialposts:ingest': 'Report social posts (the publisher does this)',
  'history:read': 'Read the history of changes',
  'settings:write': 'Change the site settings',
  'api:docs': 'Read the API documentation',
} as const
export type Capability = keyof typeof CAPABILITY_WORDS
export const CAPABILITIES = Object.keys(CAPABILITY_WORDS) as Capability[]

/** The roles, written once: a unit role is held per unit (memberships.role), a global role site-wide (people.global_role). */
export const UNIT_ROLES = ['member', 'leader'] as const
export type UnitRole = (typeof UNIT_ROLES)[number]
export const GLOBAL_ROLES = ['owner', 'admin'] as const
export type GlobalRole = (typeof GLOBAL_ROLES)[number]
export type Role = UnitRole | GlobalRole

const EVERYONE: Capability[] = ['account:self', 'apikeys:own']
const LEADER: Capability[] = [
  ...EVERYONE,
  'leads:read',
  'announcements:write',
  'nearby:write',
  'calendar:write',
  'pages:write',
  'messages:send',
  'roster:write',
  'money:write',
  'socialposts:read',
  'people:invite_leader',
  'api:docs',
  'unit:write_own',
]
const ADMIN: Capability[] = [...LEADER, 'people:invite_admin', 'history:read', 'settings:write', 'socialposts:ingest']
const OWNER: Capability[] = [...ADMIN, 'people:manage']

/** Capabilities by role, as in the matrix of docs/security.md. */
export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  member: EVERYONE,
  leader: LEADER,
  admin: ADMIN,
  owner: OWNER,
}

/**
 * The break-glass token: everything except what needs a person. It may read leads but not claim
 * them: claim routes are marked `person: true` in their definition, which refuses it.
 */
export const BREAK_GLASS_CAPABILITIES: readonly Capability[] = CAPABILITIES.filter(
  (c) =>
    c !== 'apikeys:own' &&
    c !== 'account:self' &&
    c !== 'roster:write' &&
    c !== 'money:write' && // money is kept by a person who answers for it
    c !== 'api:docs' &&
    c !== 'messages:send' && // a message needs a person to answer to
    !c.startsWith('people:'),
)

/** Capabilities that can never be put on a key (422 at minting). */
export const UNSCOPABLE: readonly Capability[] = ['apikeys:own', 'api:docs', 'people:manage']

export function capabilitiesOf(globalRole: GlobalRole | null, unitRoles: UnitRole[]): Capability[] {
  const held = new Set<Capability>(EVERYONE)
  for (const role of [...unitRoles, ...(globalRole ? [globalRole] : [])]) {
    for (const c of ROLE_CAPABILITIES[role]) held.add(c)
  }
  return CAPABILITIES.filter((c) => held.has(c))
}

/** Where a person's pages start: the admin dashboard when they hold more than everyone does, else their family page. */
export const startPage = (held: Iterable<Capability>): '/admin/' | '/family/' =>
  [...held].some((c) => !EVERYONE.includes(c)) ? '/admin/' : '/family/'
