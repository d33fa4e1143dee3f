// The layers of server/: no import circle among runtime imports, and no import from a low layer into a feature.
import { describe, expect, it } from 'bun:test'
import { Glob } from 'bun'
import path from 'node:path'

const root = path.join(import.meta.dir, '..', '..')
const LOW_FOLDERS = ['db', 'http', 'ops', 'settings', 'auth']
// Top-level files below every feature: anything may import them, and they import only low layers.
const LOW_FILES = ['errors', 'formats', 'instant-words', 'csv', 'group-by', 'rate-limit', 'schemas', 'routes']
// Top-level files beside the features: words several features show (words.ts); no low layer imports them.
const SHARED_FILES = ['words']
// Top-level files that compose the features: a low layer may name them only as types (docs/architecture.md).
const TOP_FILES = ['app', 'main', 'cli', 'env', 'services']
// The one place a low layer names a feature: Kysely's table types composed into Database.
const TYPE_COMPOSITION = 'server/db/database.ts'

interface Edge {
  to: string
  typeOnly: boolean
}

const IMPORT = /\b(import|export)\s+(type\s+)?([\w*{}\s,$]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g

function typeOnly(typeWord: string | undefined, clause: string): boolean {
  if (typeWord) return true
  const braces = clause.match(/^\{([\s\S]*)\}$/)
  if (!braces) return false
  const names = braces[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return names.length > 0 && names.every((n) => n.startsWith('type '))
}

function resolve(from: string, spec: string): string | null {
  if (spec.startsWith('#server/')) return path.join('server', spec.slice('#server/'.length))
  if (spec.startsWith('.')) return path.join(path.dirname(from), spec)
  return null
}

async function importGraph(): Promise<Map<string, Edge[]>> {
  const graph = new Map<string, Edge[]>()
  for await (const file of new Glob('server/**/*.ts').scan(root)) {
    const source = (await Bun.file(path.join(root, file)).text()).replace(/^\s*\/\/.*$/gm, '')
    const edges: Edge[] = []
    for (const m of source.matchAll(IMPORT)) {
      const to = resolve(file, m[4] ?? m[5]!)
      if (to) edges.push({ to, typeOnly: m[4] ? typeOnly(m[2], m[3]!.trim()) : false })
    }
    graph.set(file, edges)
  }
  return graph
}

/** 'low' (db/, http/, ops/, settings/, auth/ and the low top-level files), 'feature', or 'top' (the composing files). */
function layerOf(file: string): 'low' | 'feature' | 'top' {
  const parts = file.split('/')
  if (parts.length === 2) {
    const name = path.basename(file, '.ts')
    if (LOW_FILES.includes(name)) return 'low'
    if (SHARED_FILES.includes(name)) return 'feature'
    if (TOP_FILES.includes(name)) return 'top'
    throw new Error(`${file}: a new top-level file; give it a layer in tests/unit/layers.test.ts`)
  }
  return LOW_FOLDERS.includes(parts[1]!) ? 'low' : 'feature'
}

/** Each circle once, as file → file → … → the first file again (Tarjan's strongly connected parts, then one loop in each). */
function circles(graph: Map<string, Edge[]>): string[][] {
  const next = (f: string) => [...new Set((graph.get(f) ?? []).filter((e) => !e.typeOnly).map((e) => e.to))]
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const parts: string[][] = []
  let counter = 0
  const visit = (v: string) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        part.push(w)
      } while (w !== v)
      if (part.length > 1 || next(v).includes(v)) parts.push(part.sort())
    }
  }
  for (const f of [...graph.keys()].sort()) if (!index.has(f)) visit(f)
  // Show one loop through each part: the shortest way back to its first file.
  return parts.map((part) => {
    const inPart = new Set(part)
    const start = part[0]!
    const from = new Map<string, string>()
    const queue = [start]
    while (queue.length) {
      const v = queue.shift()!
      for (const w of next(v).filter((w) => inPart.has(w))) {
        if (w === start) {
          const loop = [v]
          while (loop[0] !== start) loop.unshift(from.get(loop[0]!)!)
          return [...loop, start, ...(part.length > loop.length ? [`(${part.length} files tied: ${part.join(', ')})`] : [])]
        }
        if (!from.has(w)) {
          from.set(w, v)
          queue.push(w)
        }
      }
    }
    return part
  })
}

function upArrows(graph: Map<string, Edge[]>): string[] {
  const wrong: string[] = []
  for (const [file, edges] of graph) {
    if (layerOf(file) !== 'low') continue
    for (const e of edges) {
      const to = layerOf(e.to)
      if (to === 'feature' && !(file === TYPE_COMPOSITION && e.typeOnly)) wrong.push(`${file} → ${e.to}`)
      if (to === 'top' && !e.typeOnly) wrong.push(`${file} → ${e.to} (a composing file, as a value)`)
      // db/ is the floor: it takes from the other low folders nothing, types or values.
      const composition = file === TYPE_COMPOSITION && e.typeOnly
      if (file.startsWith('server/db/') && to === 'low' && e.to.split('/').length > 2 && !e.to.startsWith('server/db/') && !composition)
        wrong.push(`${file} → ${e.to} (db/ imports only db/ and the low top-level files)`)
    }
  }
  return wrong.sort()
}

describe('the layers of server/', async () => {
  const graph = await importGraph()

  it('reads the imports of every file', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('server/app.ts')!.length).toBeGreaterThan(5)
    for (const [file, edges] of graph)
      for (const e of edges) expect(graph.has(e.to), `${file} imports ${e.to}, which is not there`).toBe(true)
  })

  it('has no circle among the runtime imports', () => {
    const found = circles(graph).map((c) => c.join('\n    → '))
    expect(found, `circles:\n  ${found.join('\n  ')}\n`).toEqual([])
  })

  it('imports no feature from db/, http/, ops/, settings/, auth/ or the low top-level files', () => {
    const found = upArrows(graph)
    expect(found, `imports that run back up:\n  ${found.join('\n  ')}\n`).toEqual([])
  })
})
