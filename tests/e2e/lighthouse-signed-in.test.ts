// Lighthouse on the family page and every admin page: they load without moving (performance at least 95, layout shift
// under 0.1), on a phone. (The public pages are in lighthouse-public.test.ts.) The test line runs this file on its own,
// after the others (tests/run-all.ts).
import { describe, expect, it } from 'bun:test'
import { addHousehold, familyAccount } from '../households.ts'
import { lighthouseSuite } from './lighthouse.ts'

const suite = lighthouseSuite()

/** Every admin page, as the owner (who sees the most on each). */
const ADMIN_PAGES = [
  '/admin/',
  '/admin/leads/',
  '/admin/pages/',
  '/admin/announcements/',
  '/admin/messages/',
  '/admin/calendar/',
  '/admin/calendar/roster/?uid=none',
  '/admin/posts/',
  '/admin/nearby/',
  '/admin/roster/',
  '/admin/people/',
  '/admin/units/',
  '/admin/keys/',
  '/admin/settings/',
  '/admin/history/',
  '/admin/account/',
]

describe('Lighthouse on the signed-in pages', () => {
  it(
    'scores the family page and every admin page at least 95 in performance, with layout shift under 0.1',
    async () => {
      const s = suite.s
      const family = await familyAccount(s, { unit: 'pack', email: null, scouts: 2 })
      const owner = await s.as({ global_role: 'owner' })
      // Enough people and households that a list that pushes the page down would show.
      for (let i = 0; i < 12; i++) await addHousehold(s.db, { unit: i % 2 ? 'troop' : 'pack', email: `family${i}@example.org` })
      for (let i = 0; i < 6; i++) await s.person({ units: [{ slug: 'pack', role: 'leader' }] })
      const pages: [string, string][] = [['/family/', family.cookie], ...ADMIN_PAGES.map((path): [string, string] => [path, owner.cookie])]
      const measured: string[] = []
      const below: string[] = []
      const measure = async (path: string, cookie: string) => {
        const { categories, audits } = await suite.audit(path, ['performance'], { Cookie: cookie })
        return {
          performance: Math.round((categories.performance.score ?? 0) * 100),
          shift: audits['cumulative-layout-shift'].numericValue ?? 1,
        }
      }
      const meetsMarks = (run: { performance: number; shift: number }) => run.performance >= 95 && run.shift < 0.1
      for (const [path, cookie] of pages) {
        // A score is a measurement, and anything else the machine does only ever lowers it: the work stretches the
        // page's tasks, which Lighthouse then counts four times over, as a phone's. The test line runs this file
        // alone for that, and a page still has up to three runs and is judged by its best (Lighthouse CI's
        // "optimistic" aggregation): a page that is slow itself is slow in every run.
        let run = await measure(path, cookie)
        for (let retry = 0; retry < 2 && !meetsMarks(run); retry++) {
          const again = await measure(path, cookie)
          if (meetsMarks(again) || again.performance > run.performance) run = again
        }
        const { performance, shift } = run
        measured.push(`${path} performance ${performance}, layout shift ${shift.toFixed(3)}`)
        if (!meetsMarks(run)) below.push(measured.at(-1)!)
      }
      console.log(measured.join('\n'))
      expect(below).toEqual([])
    },
    8 * 60_000,
  )
})
