// Every relative link in README.md and docs/ resolves: the file (or folder) exists and, when the link names a
// heading (`#anchor`), that file has the heading (GitHub's anchors: lower case, punctuation dropped, spaces to -).
import { describe, expect, it } from 'bun:test'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dir, '..', '..')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? markdownFiles(full) : entry.name.endsWith('.md') ? [full] : []
  })
}

/** The text outside fenced code blocks, where a link is a link. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '')

const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-')

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchor(heading!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n ? `${base}-${n}` : base)
  }
  return anchors
}

const FILES = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))]

describe('the docs', () => {
  it('has a README of at most 200 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(201)
  })

  it('resolves every relative link in README.md and docs/, down to the heading it names', () => {
    const broken: string[] = []
    let checked = 0
    for (const file of FILES) {
      for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue
        checked++
        const [where, hash] = target!.split('#') as [string, string | undefined]
        const resolved = where ? path.resolve(path.dirname(file), decodeURIComponent(where)) : file
        const name = `${path.relative(ROOT, file)} → ${target}`
        if (!existsSync(resolved)) broken.push(`${name}: no such file`)
        else if (hash !== undefined && (statSync(resolved).isDirectory() || !anchorsOf(resolved).has(hash)))
          broken.push(`${name}: no such heading`)
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(20)
  })
})
