// The reply card's words: when an event is (one range for a multi-day event, never a line per day) and the plain
// warning before sending more scouts than there are places left.
import { describe, expect, it } from 'bun:test'
import { dayWords } from '../../server/words.ts'
import { overWords, splitOffer, whenWords } from '../../site/src/lib/reply-words.ts'
import { addDays, today } from '../dates.ts'

const [first, last] = [addDays(today(), 10), addDays(today(), 12)]
const details = (end_date: string | null, end_time: string | null) => ({ end_date, end_time })

describe('whenWords', () => {
  it('says one day, a day with its hours, and several days as one range', () => {
    expect(whenWords({ date: first, time: null, details: details(null, null) })).toBe(`${dayWords(first)}, all day`)
    expect(whenWords({ date: first, time: '19:00', details: details(null, '20:30') })).toBe(`${dayWords(first)}, 7:00 PM – 8:30 PM`)
    expect(whenWords({ date: first, time: '19:00', details: details(null, null) })).toBe(`${dayWords(first)}, 7:00 PM`)
    expect(whenWords({ date: first, time: null, details: details(last, null) })).toBe(`${dayWords(first)} – ${dayWords(last)} (all day)`)
    expect(whenWords({ date: first, time: '17:00', details: details(last, '10:00') })).toBe(
      `${dayWords(first)}, 5:00 PM – ${dayWords(last)}, 10:00 AM`,
    )
  })
})

describe('overWords', () => {
  const places = (left: number, waitlisted = 0) => ({ capacity: 10, confirmed: 10 - left, waitlisted, left })

  it('is empty when the scouts fit, for no answer yet, and without places', () => {
    expect(overWords(2, places(2), undefined)).toBe('')
    expect(overWords(0, places(0), undefined)).toBe('')
    expect(overWords(3, undefined, undefined)).toBe('')
  })

  it('warns that all wait together when they are more than the places left, and offers to confirm some now', () => {
    expect(overWords(2, places(1), undefined)).toBe(
      '2 scouts, 1 place left: both go on the waiting list and move up together when places free. Or confirm 1 now and let the rest wait: choose below.',
    )
    expect(overWords(3, places(2), undefined)).toStartWith('3 scouts, 2 places left: all 3 go on the waiting list')
    expect(overWords(1, places(0), undefined)).toBe(
      '1 scout, no places left: your scout goes on the waiting list and moves up when a place frees.',
    )
    // Places free while others wait are theirs first.
    expect(overWords(1, places(3, 2), undefined)).toStartWith('1 scout, others are already waiting:')
  })

  it('with the split chosen: the first ones confirmed now, the rest waiting; no split to offer when nothing is free', () => {
    expect(splitOffer(3, places(2), undefined)).toBe(2)
    expect(overWords(3, places(2), undefined, true)).toBe(
      '3 scouts, 2 places left: 2 confirmed now, 1 on the waiting list, moving up as places free.',
    )
    expect(splitOffer(2, places(0), undefined)).toBe(0)
    expect(splitOffer(2, places(3, 2), undefined)).toBe(0) // others wait first
    expect(splitOffer(1, places(0), undefined)).toBe(0)
    expect(overWords(2, places(0), undefined, true)).toStartWith('2 scouts, no places left: both go on the waiting list')
    // A split household: its own waiting scouts are not "others"; it keeps its confirmed one and may split again.
    const split = { answer: 'yes', status: 'confirmed', scouts: 3, waitlisted_scouts: 2 }
    expect(splitOffer(3, places(0, 2), split)).toBe(1)
    expect(overWords(1, places(0, 2), split)).toBe('')
    expect(overWords(3, places(0, 2), split, true)).toBe(
      '3 scouts, no more places left: 1 confirmed now, 2 on the waiting list, moving up as places free.',
    )
  })

  it('for a household already confirmed: more scouts than places left is refused and its own stay', () => {
    const confirmed = { answer: 'yes', status: 'confirmed', scouts: 1 }
    expect(overWords(1, places(0), confirmed)).toBe('')
    expect(overWords(2, places(1), confirmed)).toBe('')
    expect(overWords(3, places(1), confirmed)).toBe(
      '3 scouts, 1 more place left: this change is refused and your place stays yours. Choose fewer scouts, or confirm 2 now and let the rest wait.',
    )
  })
})
