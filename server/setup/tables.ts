// The setup checklist table's type (composed into Database by db/database.ts).

export interface SetupStepTable {
  step: string
  dismissed_at: string
  dismissed_by: string
}
