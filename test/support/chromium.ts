/**
 * Debian's Chromium for the browser suites (never a downloaded browser): whether it is there, and
 * a headless launch of it with the flags that keep it from reaching the network.
 */
import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { chromium } from 'playwright-core'

const CHROMIUM = '/usr/bin/chromium'

/** Whether Chromium is installed; without it a suite skips (`what` says which), but under CI it fails. */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true
  const message = `${CHROMIUM} is missing (apt-get install -y chromium)`
  if (process.env.CI === 'true' || process.env.CI === '1')
    throw new Error(`${message}; CI needs it, so this is a failure, not a skip`)
  console.warn(`[vela tests] ${message}: skipping ${what}`)
  return false
}

/** Headless Chromium with nothing of its own going to the network (updates, sync, first-run pages). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
