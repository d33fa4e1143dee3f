// The trip roster's "Who came" part: the same taps as the attendance page, for the event the roster shows; without a
// signal, the copy kept on this phone, with the taps kept until the signal is back.
import { showAttendance } from '../attendance-taking.ts'
import { signedInOrOffline } from '../offline-roster.ts'

const key = new URLSearchParams(location.search).get('uid')
const { account } = await signedInOrOffline('/admin/calendar/')
if (key) await showAttendance(key, account)
