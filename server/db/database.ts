// The Database interface, composed from the table types each feature declares beside it (its tables.ts), as
// Kysely's own example does, and the Executor type queries take (the database or a transaction).
import type { Kysely, Transaction } from 'kysely'
import type { AnnouncementTable } from '../announcements/tables.ts'
import type { AttendanceAdultTable, AttendanceTable } from '../attendance/tables.ts'
import type { ServerSecretTable, SessionTable } from '../auth/tables.ts'
import type { BackupTable } from '../backups/tables.ts'
import type {
  CalendarObjectTable,
  CalendarSiteEventTable,
  CalendarUidTable,
  HouseholdFeedTable,
  RsvpEventTable,
  RsvpPaymentTable,
  RsvpPermissionTable,
  RsvpReminderTable,
  RsvpSlotTable,
  RsvpTable,
} from '../calendar/tables.ts'
import type { CatalogFileTable, CatalogRemovedTable, CatalogSequenceTable, CatalogVariantTable } from '../catalog/tables.ts'
import type { FileTable } from '../files/tables.ts'
import type { ActionLogTable } from '../history/tables.ts'
import type { IdempotencyKeyTable } from '../http/tables.ts'
import type { ApiKeyTable } from '../keys/tables.ts'
import type { JoinSpamTable, LeadSearchTable, LeadTable, MirrorCopyTable } from '../leads/tables.ts'
import type { MailOutboxTable } from '../mail/tables.ts'
import type { MoneyEntryTable, MoneyImportTable, OnlinePaymentTable } from '../money/tables.ts'
import type { DigestRunTable, MailSubscriptionTable, MessageSkipTable, MessageTable } from '../messages/tables.ts'
import type { NearbyUnitTable } from '../nearby/tables.ts'
import type { ContentPageTable } from '../pages/tables.ts'
import type { PhotoScoutTable, PhotoTable } from '../photos/tables.ts'
import type { InviteTable, MembershipTable, PersonTable, ResetLinkTable, SetupTokenTable } from '../people/tables.ts'
import type { LoginLinkTable, RosterWelcomeTable } from '../account/tables.ts'
import type { CheckTable, HouseholdPersonTable, HouseholdTable, RosterImportTable, ScoutTable } from '../roster/tables.ts'
import type { LoginTicketTable, PasskeyChallengeTable, RecoveryCodeTable, SecondFactorTable } from '../second-factor/tables.ts'
import type { PushOutboxTable, PushPreferenceTable, PushSubscriptionTable } from '../push/tables.ts'
import type { SettingTable } from '../settings/tables.ts'
import type { SetupStepTable } from '../setup/tables.ts'
import type { SiteBuildTable } from '../site/tables.ts'
import type { SocialPostTable } from '../socialposts/tables.ts'
import type { UnitTable } from '../units/tables.ts'

export type Executor = Kysely<Database> | Transaction<Database>

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
  login_links: LoginLinkTable
  roster_welcomes: RosterWelcomeTable
  households: HouseholdTable
  household_people: HouseholdPersonTable
  scouts: ScoutTable
  checks: CheckTable
  roster_imports: RosterImportTable
  calendar_uids: CalendarUidTable
  calendar_objects: CalendarObjectTable
  calendar_site_events: CalendarSiteEventTable
  rsvp_events: RsvpEventTable
  rsvps: RsvpTable
  rsvp_permissions: RsvpPermissionTable
  rsvp_slots: RsvpSlotTable
  rsvp_payments: RsvpPaymentTable
  rsvp_reminders: RsvpReminderTable
  attendance: AttendanceTable
  attendance_adults: AttendanceAdultTable
  money_entries: MoneyEntryTable
  online_payments: OnlinePaymentTable
  money_imports: MoneyImportTable
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
  household_feeds: HouseholdFeedTable
  digest_runs: DigestRunTable
  content_pages: ContentPageTable
  setup_steps: SetupStepTable
  server_secrets: ServerSecretTable
  push_subscriptions: PushSubscriptionTable
  push_preferences: PushPreferenceTable
  push_outbox: PushOutboxTable
  photos: PhotoTable
  photo_scouts: PhotoScoutTable
  files: FileTable
}
