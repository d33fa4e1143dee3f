// Browser fixtures: Debian's Chromium through playwright-core, sign-in through the real login page, axe scans.
import { readFileSync } from 'node:fs'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(path.join(import.meta.dir, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8')
export const SCREENSHOTS = path.join(import.meta.dir, '..', '..', 'test-results', 'screenshots')

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

export async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/login/`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${base}/admin/`)
}

/** Serious and critical axe-core violations on the current page (the context must bypass CSP to inject axe). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const results: any = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))
  return results.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(' ')).join(', ')})`)
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true })
}
