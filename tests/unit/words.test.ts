// How the pages name scouts and dens, from one place for the roster, the family page, the trip roster and the replies.
import { describe, expect, it } from 'bun:test'
import { denWords, goesBy, plural, scoutName } from '../../server/words.ts'

describe('denWords', () => {
  it('calls a pack den a den and a troop patrol a patrol, never "Eagle Patrol den"', () => {
    expect(denWords('Wolf', 'pack')).toBe('Wolf den')
    expect(denWords('Wolf den', 'pack')).toBe('Wolf den')
    expect(denWords('Eagle', 'troop')).toBe('Eagle Patrol')
    expect(denWords('Eagle Patrol', 'troop')).toBe('Eagle Patrol')
    expect(denWords('grade 3', 'pack')).toBe('grade 3')
  })
})

describe('scout names', () => {
  const jamie = { first_name: 'Jamie', preferred_name: 'Jay', last_name: 'Hale' }
  it('gives leaders the first name and the name the scout goes by', () => {
    expect(scoutName(jamie)).toBe('Jamie “Jay” Hale')
    expect(scoutName({ ...jamie, preferred_name: 'Jamie' })).toBe('Jamie Hale')
    expect(scoutName({ ...jamie, preferred_name: null, last_name: null })).toBe('Jamie')
  })
  it('calls a scout by the name they go by day to day', () => {
    expect(goesBy(jamie)).toBe('Jay Hale')
    expect(goesBy({ ...jamie, preferred_name: null })).toBe('Jamie Hale')
  })
})

describe('plural', () => {
  it('says 1 of one and any other number of many', () => {
    expect(plural(1, 'unclaimed lead')).toBe('1 unclaimed lead')
    expect(plural(0, 'active session')).toBe('0 active sessions')
    expect(plural(2, 'failed spreadsheet copy', 'failed spreadsheet copies')).toBe('2 failed spreadsheet copies')
  })
})
