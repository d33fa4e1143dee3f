// The settings table's type (composed into Database by db/database.ts).

export interface SettingTable {
  key: string
  value: string // JSON
  updated_at: string
}
