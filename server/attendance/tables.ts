// The attendance tables' types (composed into Database by db/database.ts): who came to an event, scouts by id and adults by name.

/** A scout marked present or not at one event (an occurrence's key for a repeating one, see occurrence.ts). */
export interface AttendanceTable {
  event_uid: string
  scout_id: number
  /** 1 when the scout came. */
  present: number
  /** The scout's unit slug when recorded: a scout who moves from the pack to the troop keeps the pack's nights. */
  unit: string
  recorded_at: string
  recorded_by: string
}

/** An adult marked present or not at one event, by the name the leader wrote. */
export interface AttendanceAdultTable {
  event_uid: string
  name: string
  present: number
  recorded_at: string
  recorded_by: string
}
