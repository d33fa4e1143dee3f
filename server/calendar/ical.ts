// ical.js, set up once for everything that writes iCalendar: lines are folded at 75 octets at most,
// counting the space that starts a continuation line (RFC 5545 §3.1). ical.js counts its fold length
// before that space, so 74 it is. It never folds inside a UTF-8 character.
import ICAL from 'ical.js'

ICAL.foldLength = 74

export default ICAL
