// The search index of each catalog version is built in a search worker of its own, and the worker it replaces (its
// index and its heap) has exited before the new one starts: two indexes, or an index and a build, never share the
// process's memory. Issue 47: at 100,000 variants resident memory rose to 433–499 MB for moments while the old
// worker was still ending beside the new build. Here at 20,000 variants, in a few seconds: each rebuild's peak stays
// at the first build's, and no thread of the new search worker runs beside one of the old.
//
// The builds run in a process of their own (`catalog-memory-probe.ts`) with the allocator the service runs with: the
// test line's processes keep the memory they free (`MIMALLOC_PURGE_DELAY`), which would add each old heap to the peak.
import { describe, expect, it } from 'bun:test'
import path from 'node:path'

type Build = { version: number; peak: number; overlap: boolean; found: number; workers: number }

async function probe(): Promise<Build[]> {
  const { MIMALLOC_PURGE_DELAY: _kept, ...env } = process.env
  const proc = Bun.spawn([process.execPath, path.join(import.meta.dir, 'catalog-memory-probe.ts')], { env, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`the probe exited with ${code}:\n${err}`)
  return JSON.parse(out)
}

describe('rebuilding the search index for a new catalog version', () => {
  it('ends the old search worker before the new one builds: the peak stays at one build', async () => {
    const [first, ...rebuilds] = await probe()
    expect({ found: first!.found, running: first!.workers > 0 }).toEqual({ found: 10, running: true })
    expect(rebuilds.map((b) => b.version)).toEqual([2, 3, 4])
    for (const rebuild of rebuilds) {
      const { version } = rebuild
      expect({ version, found: rebuild.found }).toEqual({ version, found: 10 })
      // Before: the old worker ended while the new one started, both alive for a moment (their threads and heaps).
      expect({ version, overlap: rebuild.overlap }).toEqual({ version, overlap: false })
      // The old index's 20,000 rows and its worker's heap (about 25 MB here) would come on top of the build's peak.
      expect({ version, peak: rebuild.peak < first!.peak + 15 ? 'at one build' : rebuild.peak }).toEqual({ version, peak: 'at one build' })
    }
  }, 60_000)
})
