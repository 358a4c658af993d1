/**
 * What a documentation page shown in Chromium has cut off: content a reader cannot see without
 * scrolling sideways. Each entry names the element and by how much it is too wide:
 * - an element of the page's text (`.vp-doc`) whose content is wider than its box, whether the
 *   rest is clipped, behind a scrollbar or spilling over the column's edge;
 * - anywhere else on the page (hero, sidebar, outline), an element that clips or scrolls its content;
 * - the document itself scrolling sideways.
 * Screen-reader-only text (`.visually-hidden`, one pixel wide by design) is left out.
 */
import type { Page } from 'playwright-core'

export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // No function is declared in here: a bundler's name helpers do not exist in the page.
    const found: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('.VPContent *')) {
      if (el.closest('.visually-hidden')) continue
      const over = el.scrollWidth - el.clientWidth
      if (over <= 1) continue
      if (getComputedStyle(el).overflowX === 'visible' && !el.closest('.vp-doc')) continue
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60)
      const cls = el.className ? `.${String(el.className).split(' ')[0]}` : ''
      found.push(`${el.tagName.toLowerCase()}${cls} "${text}": ${over} px too wide`)
    }
    const { scrollWidth, clientWidth } = document.documentElement
    if (scrollWidth > clientWidth) found.push(`the page scrolls sideways by ${scrollWidth - clientWidth} px`)
    return found
  })
}
