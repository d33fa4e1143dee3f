// The Database interface: every table the service stores, the enumerations its columns hold, the row aliases
// used elsewhere, and the Executor type queries take (the database or a transaction).
import type { Generated, Kysely, Selectable, Transaction } from 'kysely'
import type { MailOutboxTable } from '../mail/tables.ts'
import type { DigestRunTable, MailSubscriptionTable, MessageSkipTable, MessageTable } from '../messages/tables.ts'

export type Executor = Kysely<Database> | Transaction<Database>

export const UNIT_ROLES = ['member', 'leader'] as const
export type UnitRole = (typeof UNIT_ROLES)[number]
export const GLOBAL_ROLES = ['owner', 'admin'] as const
export type GlobalRole = (typeof GLOBAL_ROLES)[number]
export const UNIT_SLUGS = ['pack', 'troop'] as const
export const LEAD_UNITS = ['pack', 'troop', 'unsure'] as const
export const NEARBY_UNIT_TYPES = ['pack', 'troop', 'crew', 'ship', 'post'] as const
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]
export const CHECK_ITEMS = ['dues', 'health_form'] as const
export type CheckItem = (typeof CHECK_ITEMS)[number]
export const MIRROR_STATUSES = ['pending', 'ok', 'failed'] as const
export const GAME_MODES = ['br', 'og', 'reload', 'festival', 'racing', 'blocks'] as const
export type GameMode = (typeof GAME_MODES)[number]
export const CATALOG_STATUSES = ['unreleased', 'released', 'hidden'] as const
export type CatalogStatus = (typeof CATALOG_STATUSES)[number]
export const POST_STATUSES = ['drafted', 'scheduled', 'handed_off', 'cancelled', 'published', 'failed'] as const
export type PostStatus = (typeof POST_STATUSES)[number]

export interface Database {
  units: UnitTable
  people: PersonTable
  memberships: MembershipTable
  sessions: SessionTable
  api_keys: ApiKeyTable
  invites: InviteTable
  setup_tokens: SetupTokenTable
  settings: SettingTable
  action_log: ActionLogTable
  site_builds: SiteBuildTable
  backups: BackupTable
  catalog_variants: CatalogVariantTable
  catalog_files: CatalogFileTable
  catalog_removed: CatalogRemovedTable
  catalog_sequence: CatalogSequenceTable
  leads: LeadTable
  leads_search: LeadSearchTable
  join_spam: JoinSpamTable
  mirror_copies: MirrorCopyTable
  announcements: AnnouncementTable
  nearby_units: NearbyUnitTable
  reset_links: ResetLinkTable
  households: HouseholdTable
  household_people: HouseholdPersonTable
  scouts: ScoutTable
  checks: CheckTable
  calendar_uids: CalendarUidTable
  calendar_objects: CalendarObjectTable
  calendar_site_events: CalendarSiteEventTable
  rsvp_events: RsvpEventTable
  rsvps: RsvpTable
  rsvp_permissions: RsvpPermissionTable
  rsvp_slots: RsvpSlotTable
  rsvp_payments: RsvpPaymentTable
  rsvp_reminders: RsvpReminderTable
  idempotency_keys: IdempotencyKeyTable
  social_posts: SocialPostTable
  second_factors: SecondFactorTable
  recovery_codes: RecoveryCodeTable
  login_tickets: LoginTicketTable
  passkey_challenges: PasskeyChallengeTable
  mail_outbox: MailOutboxTable
  messages: MessageTable
  message_skips: MessageSkipTable
  mail_subscriptions: MailSubscriptionTable
  digest_runs: DigestRunTable
  content_pages: ContentPageTable
  setup_steps: SetupStepTable
}

export interface UnitTable {
  id: Generated<number>
  slug: (typeof UNIT_SLUGS)[number]
  name: string
  unit_type: (typeof UNIT_SLUGS)[number]
  number: string | null
  meeting_day: Weekday | null
  meeting_time: string | null
  meeting_place: string | null
  updated_at: string
}
export type Unit = Selectable<UnitTable>

export interface PersonTable {
  id: Generated<number>
  email: string
  name: string | null
  password_hash: string
  global_role: GlobalRole | null
  disabled_at: string | null
  created_at: string
  /** Since when security.second_factor asks this person for a second factor; null while it does not. */
  second_factor_asked_since: string | null
  /** 1 when a unit leader gets a mail for each new lead of their unit (the account page turns it off). */
  lead_alerts: Generated<number>
  /** 1 when the person's email may appear beside their name on the public unit page. */
  show_email: Generated<number>
}

export interface MembershipTable {
  person_id: number
  unit_id: number
  role: UnitRole
  title: string | null
}

export interface SessionTable {
  id: Generated<number>
  token_hash: string
  person_id: number
  created_at: string
  last_seen_at: string
  expires_at: string
  address: string | null
  user_agent: string | null
}

export interface ApiKeyTable {
  id: Generated<number>
  person_id: number
  label: string
  scopes: string // JSON array of capability names
  token_hash: string
  hint: string
  created_at: string
  expires_at: string | null
  revoked_at: string | null
  last_used_at: string | null
}
export type ApiKey = Selectable<ApiKeyTable>

export interface InviteTable {
  id: Generated<number>
  token_hash: string
  email: string
  global_role: GlobalRole | null
  units: string // JSON array of {unit_id, role, title}
  invited_by: string
  created_at: string
  expires_at: string
  revoked_at: string | null
  used_at: string | null
  person_id: number | null
  /** Who issued it (the person, and their key when a key did): it works only while they could issue it still. */
  issuer_person_id: number | null
  issuer_key_id: number | null
  /** The household the account is linked to on acceptance. */
  household_id: number | null
}
export type Invite = Selectable<InviteTable>

export interface SetupTokenTable {
  id: Generated<number>
  token_hash: string
  created_at: string
  used_at: string | null
}
export type SetupToken = Selectable<SetupTokenTable>

export interface SettingTable {
  key: string
  value: string // JSON
  updated_at: string
}

export interface ActionLogTable {
  id: Generated<number>
  at: string
  kind: string
  actor: string
  summary: string
}

export interface SiteBuildTable {
  id: Generated<number>
  started_at: string
  finished_at: string
  duration_ms: number
  ok: number
  reason: string
  error: string | null
}

export interface BackupTable {
  id: Generated<number>
  started_at: string
  finished_at: string
  reason: 'daily' | 'catch-up' | 'before-migration'
  ok: number
  /** The file's name in the backup folder; null when the attempt failed. */
  file: string | null
  bytes: number | null
  error: string | null
}

export interface CatalogVariantTable {
  id: Generated<number>
  season: string
  base_name: string
  row_name: string
  variant: string
  status: CatalogStatus
  released_at: string | null
  max_stack: number
  rarity_weight: number | null
  confirmed: number
  game_mode: GameMode
  cross_mode_trading: number
  notes: string | null
  /** Stable while the season, base name and variant stay the same. */
  variant_id: string
  /** The load that last changed this variant (see catalog_sequence). */
  changed_seq: number
  /** The season's numbers (c6s3: 6 and 3), for natural order across seasons. */
  chapter: number
  season_no: number
  /** Base, row and variant names, lower case without accents, for search. */
  search_text: string
  /** When the catalog first saw this variant, and when its content last changed (RFC 3339). */
  added_at: string
  changed_at: string
  /** Its place in its season file, from 0: a page cursor's position. */
  ord: number
  /** row_name folded as search folds it, for the row_name filter. */
  row_key: string
}
export type CatalogVariant = Selectable<CatalogVariantTable>

/** A variant that a load removed (its season file changed or went away), for bots that sync. */
export interface CatalogRemovedTable {
  variant_id: string
  season: string
  removed_seq: number
  removed_at: string
}

/** One row: the number of the latest catalog load; every load that changes anything takes the next. */
export interface CatalogSequenceTable {
  id: number
  seq: number
}

export interface CatalogFileTable {
  file: string
  season: string | null
  checked_at: string
  ok: number
  loaded_at: string | null
  problems: string // JSON array of {level, pointer, message}
}

export interface LeadTable {
  id: Generated<number>
  created_at: string
  parent_name: string
  email: string | null
  phone: string | null
  scout_name: string | null
  scout_grade: string | null
  unit: (typeof LEAD_UNITS)[number]
  message: string | null
  claimed_by: number | null
  claimed_at: string | null
}
export type Lead = Selectable<LeadTable>

/** The FTS5 trigram index over the searchable lead fields (migration 0011); its rowid is the lead's id. */
export interface LeadSearchTable {
  rowid: number
}

export interface JoinSpamTable {
  id: Generated<number>
  at: string
  address: string | null
  payload: string
}

export interface MirrorCopyTable {
  lead_id: number
  target: 'spreadsheet'
  status: (typeof MIRROR_STATUSES)[number]
  attempts: number
  last_attempt_at: string | null
  error: string | null
}

export const ANNOUNCEMENT_UNITS = ['pack', 'troop', 'both'] as const
export type AnnouncementUnit = (typeof ANNOUNCEMENT_UNITS)[number]

export interface AnnouncementTable {
  id: Generated<number>
  message: string
  starts_at: string
  ends_at: string
  created_at: string
  created_by: string
  revoked_at: string | null
  /** Whose pages show it: pack, troop or both (every page). */
  unit: Generated<AnnouncementUnit>
}
export type Announcement = Selectable<AnnouncementTable>

export interface NearbyUnitTable {
  id: Generated<number>
  name: string
  unit_type: (typeof NEARBY_UNIT_TYPES)[number]
  unit_number: string | null
  town: string | null
  meeting_place: string | null
  meeting_day: Weekday | null
  meeting_time: string | null
  website: string | null
  contact_email: string | null
  notes: string | null
  verified_at: string | null
  active: 0 | 1
  created_at: string
  updated_at: string
}

export interface ResetLinkTable {
  id: Generated<number>
  token_hash: string
  person_id: number
  created_by: string
  created_at: string
  expires_at: string
  used_at: string | null
  revoked_at: string | null
  issuer_person_id: number | null
  issuer_key_id: number | null
  /** 1 for a link the person asked for on the sign-in page: it needs no leader, only that the person is still active. */
  asked_by_self: Generated<number>
}
export type ResetLink = Selectable<ResetLinkTable>

export interface HouseholdTable {
  id: Generated<number>
  parent_name: string
  email: string | null
  phone: string | null
  second_parent: string | null
  /** Whom to call when the parents cannot be reached (on a trip). */
  emergency_name: string | null
  emergency_phone: string | null
  notes: string | null
  active: number
  lead_id: number | null
  created_at: string
  updated_at: string
  /** Who added it: until it has a scout, only they (and admins) may change it. Null for households from before. */
  created_by_person_id: number | null
  /** What the roster sorts by; null sorts by the parent's last name. */
  sort_name: string | null
}
export type Household = Selectable<HouseholdTable>

export interface HouseholdPersonTable {
  household_id: number
  person_id: number
}

export interface ScoutTable {
  id: Generated<number>
  household_id: number
  first_name: string
  last_name: string | null
  unit_id: number
  den: string | null
  org_member_id: string | null
  /** The name the scout goes by, set by the family (shown in place of the first name). */
  preferred_name: string | null
  /** 1 when the family agrees to the scout appearing in photos. */
  photo_consent: Generated<number>
  created_at: string
  updated_at: string
}
export type Scout = Selectable<ScoutTable>

export interface CheckTable {
  scout_id: number
  /** The program year, by the calendar year it starts in. */
  year: number
  item: CheckItem
  done: number
  note: string | null
  /** health_form: the date written on the form (YYYY-MM-DD); it counts for 12 months from it. */
  form_date: string | null
  recorded_by: string
  recorded_at: string
}

export interface CalendarUidTable {
  uid: string
  created_at: string
}

export interface CalendarObjectTable {
  uid: string
  url: string
  etag: string | null
  ics: string
  synced_at: string
}

/** An event the site keeps itself (no CalDAV collection configured): the resource a collection would hold. */
export interface CalendarSiteEventTable {
  uid: string
  ics: string
  etag: string
  changed_at: string
}

export const RSVP_ANSWERS = ['yes', 'maybe', 'no'] as const
export type RsvpAnswer = (typeof RSVP_ANSWERS)[number]

/** An event that asks for replies, as last seen in the store. */
export interface RsvpEventTable {
  uid: string
  title: string
  date: string
  time: string | null
  location: string | null
  /** Replies close at this instant (the event's start). */
  starts_at: string
  asking: number
  asked_by: string
  asked_at: string
  /** When the store stopped holding the event; its replies are dropped 30 days later. */
  gone_at: string | null
  /** The sign-up settings (JSON), null for plain replies. */
  signup: string | null
  /** Whom the event concerns: the households with a scout in this unit, or every household. */
  unit: Generated<'pack' | 'troop' | 'both'>
}

export const REMINDER_KINDS = ['before_start', 'before_close'] as const
export type ReminderKind = (typeof REMINDER_KINDS)[number]

/** A reminder queued: one per event, household and kind. */
/** The first answer to a POST sent with an Idempotency-Key (see server/http/idempotency.ts). */
export interface IdempotencyKeyTable {
  /** Who sent it: `session:<id>`, `key:<id>`, `break_glass` or `address:<client>`. */
  credential: string
  key: string
  /** A hash of the method, path and body: the same key with another request is refused. */
  fingerprint: string
  status: number
  content_type: string | null
  body: Uint8Array
  created_at: string
}

export interface RsvpReminderTable {
  uid: string
  household_id: number
  kind: ReminderKind
  queued_at: string
}

export interface RsvpTable {
  uid: string
  household_id: number
  answer: RsvpAnswer
  adults: number
  scouts: number
  note: string | null
  answered_by: string
  answered_at: string
  status: Generated<RsvpStatus>
  /** When the household's yes joined the line for places: the waitlist's order. */
  queued_at: string | null
  /** The scouts coming (JSON array of ids), when the event asks per scout. */
  scout_ids: string | null
}

export const RSVP_STATUSES = ['confirmed', 'waitlisted'] as const
export type RsvpStatus = (typeof RSVP_STATUSES)[number]

/** A permission slip as signed: the text shown, the typed name, who, when and from where. */
export interface RsvpPermissionTable {
  uid: string
  household_id: number
  text: string
  signed_name: string
  signed_by: string
  signed_at: string
  address: string
}

export interface RsvpSlotTable {
  uid: string
  household_id: number
  name: string
  count: number
}

export const PAYMENT_METHODS = ['cash', 'check', 'online', 'other'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export interface RsvpPaymentTable {
  uid: string
  household_id: number
  paid_cents: number
  method: PaymentMethod
  note: string | null
  recorded_by: string
  recorded_at: string
}

export interface SocialPostTable {
  id: string
  unit: string
  status: PostStatus
  page_id: string | null
  social_post_id: string | null
  message: string
  link: string | null
  scheduled_for: string
  queue_file: string | null
  cancel_url: string | null
  image_ref: string | null
  image: Uint8Array | null
  image_mime: string | null
  image_sha256: string | null
  reported_at: string
  updated_at: string
}
export type SocialPost = Selectable<SocialPostTable>

export const SECOND_FACTOR_KINDS = ['totp', 'passkey'] as const
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number]

/** An authenticator app (TOTP, one per person) or a passkey (WebAuthn credential). */
export interface SecondFactorTable {
  id: Generated<number>
  person_id: number
  kind: SecondFactorKind
  name: string
  created_at: string
  /** An authenticator app counts once a code from it was confirmed; a passkey when it is registered. */
  confirmed_at: string | null
  last_used_at: string | null
  /** Base32; the TOTP step last used, so a code works once. */
  totp_secret: string | null
  totp_last_step: number | null
  /** Base64url credential id and public key, the signature counter and transports (JSON). */
  credential_id: string | null
  public_key: string | null
  counter: number | null
  transports: string | null
}
export type SecondFactor = Selectable<SecondFactorTable>

export interface RecoveryCodeTable {
  id: Generated<number>
  person_id: number
  code_hash: string
  created_at: string
  used_at: string | null
}

/** The step between a right password and its second factor (or a passkey sign-in): five minutes, five tries. */
export interface LoginTicketTable {
  id: Generated<number>
  token_hash: string
  /** Null for a passkey sign-in without a password, until the passkey names the person. */
  person_id: number | null
  /** The WebAuthn challenge the passkey must sign, when passkeys may answer. */
  challenge: string | null
  created_at: string
  expires_at: string
  failures: Generated<number>
  used_at: string | null
}

export interface PasskeyChallengeTable {
  person_id: number
  challenge: string
  expires_at: string
}

export interface ContentPageTable {
  id: Generated<number>
  slug: string
  title: string
  /** Markdown, rendered and sanitised when the site is built. */
  body: string
  unit: 'pack' | 'troop' | 'both'
  published: number
  created_at: string
  updated_at: string
  updated_by: string
}
export type ContentPage = Selectable<ContentPageTable>

export interface SetupStepTable {
  step: string
  dismissed_at: string
  dismissed_by: string
}
