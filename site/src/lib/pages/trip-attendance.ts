// The trip roster's "Who came" part: the same taps as the attendance page, for the event the roster shows.
import { showAttendance } from '../attendance-taking.ts'

const key = new URLSearchParams(location.search).get('uid')
if (key) await showAttendance(key)
