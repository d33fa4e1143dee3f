// Lighthouse on every public page: each scores at least 95 in accessibility, best practices and SEO, on a phone.
// (The signed-in pages are in lighthouse-signed-in.test.ts.)
import { describe, expect, it } from 'bun:test'
import { PUBLIC_PAGES } from '../helpers.ts'
import { lighthouseSuite } from './lighthouse.ts'

const CATEGORIES = ['accessibility', 'best-practices', 'seo']

const { audit } = lighthouseSuite()

describe('Lighthouse on the public pages', () => {
  it(
    `scores every public page at least 95 in ${CATEGORIES.join(', ')}`,
    async () => {
      const below: string[] = []
      for (const path of PUBLIC_PAGES) {
        const { categories, audits } = await audit(path, CATEGORIES)
        for (const id of CATEGORIES) {
          const score = Math.round((categories[id].score ?? 0) * 100)
          if (score >= 95) continue
          const failing = categories[id].auditRefs.filter((ref) => ref.weight > 0 && (audits[ref.id].score ?? 1) < 1).map((ref) => ref.id)
          below.push(`${path} ${id} ${score}: ${failing.join(', ')}`)
        }
      }
      expect(below).toEqual([])
    },
    15 * 60_000,
  )
})
