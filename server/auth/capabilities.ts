// The one role → capability matrix, and the rules that derive a caller's capabilities from it.
export const CAPABILITIES = [
  'apikeys:own',
  'leads:read',
  'announcements:write',
  'nearby:write',
  'unit:write_own',
  'calendar:write',
  'account:self',
  'roster:write',
  'people:invite_leader',
  'people:invite_admin',
  'people:manage',
  'socialposts:read',
  'socialposts:ingest',
  'history:read',
  'settings:write',
  'api:docs',
] as const
export type Capability = (typeof CAPABILITIES)[number]

export type GlobalRole = 'owner' | 'admin'
export type UnitRole = 'member' | 'leader'

const EVERYONE: Capability[] = ['account:self', 'apikeys:own']
const LEADER: Capability[] = [
  ...EVERYONE,
  'leads:read',
  'announcements:write',
  'nearby:write',
  'calendar:write',
  'roster:write',
  'socialposts:read',
  'people:invite_leader',
  'api:docs',
  'unit:write_own',
]
const ADMIN: Capability[] = [...LEADER, 'people:invite_admin', 'history:read', 'settings:write', 'socialposts:ingest']
const OWNER: Capability[] = [...ADMIN, 'people:manage']

/** Capabilities by role, as in the README's matrix. */
export const ROLE_CAPABILITIES: Record<UnitRole | GlobalRole, readonly Capability[]> = {
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
  (c) => c !== 'apikeys:own' && c !== 'account:self' && c !== 'roster:write' && c !== 'api:docs' && !c.startsWith('people:'),
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
