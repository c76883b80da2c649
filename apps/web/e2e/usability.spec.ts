// Density and accessibility of every plugin (issue 24, "Measures"), on the routes the product itself
// lists in its main menu (a new plugin is covered without editing this file), signed in as 'admin'
// (who opens every route):
// - every LIST at 1366×768 shows at least 12 data rows fully inside the viewport, without scrolling;
// - every route is axe-clean in light and dark at 1366×768 and at 360×740, and at 360 px the page
//   does not scroll sideways;
// - the 'Novo …'/'Nova …' pages reached from the lists, the first record each list opens (its edit
//   form or read-only page) and an approval page (as its approver), walked with Tab, never leave the
//   focused element under the sticky header (WCAG 2.2 SC 2.4.11, focus not obscured).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signInFromHome } from './helpers';

const WIDE = { width: 1366, height: 768 };
const NARROW = { width: 360, height: 740 };
/** The rows a list must show at 1366×768 without scrolling. */
const MIN_ROWS = 12;

type Route = { href: string; label: string };

/** The routes of the main menu, in its order (what a person can reach from it). */
async function menuRoutes(page: Page): Promise<Route[]> {
  const links = page.getByRole('navigation', { name: 'Menu principal' }).locator('a[href]');
  await expect(links.first()).toBeAttached();
  const routes = await links.evaluateAll((as) =>
    as.map((a) => ({ href: a.getAttribute('href') ?? '', label: (a.querySelector('.app-nav__label') ?? a).textContent?.trim() ?? '' })),
  );
  expect(routes.length, 'the main menu has entries').toBeGreaterThan(5);
  return routes;
}

/** Opens a path and waits until the page has drawn its content: a heading, nothing loading or busy. */
async function open(page: Page, href: string) {
  await page.goto(href);
  await settle(page);
}

async function settle(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(main.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(main.getByText(/Carregando/)).toHaveCount(0);
}

/** The theme, through the 'Sistema' preference the app follows live: no reload. */
async function theme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
}

/**
 * axe on the page: every rule, or (`colours`) only the rules a theme can change — the dark theme
 * swaps colour tokens, nothing else, so its pass checks contrast and keeps the run short.
 */
async function axe(page: Page, where: string, colours = false) {
  // legacy mode: axe runs in the page itself, without opening a blank page per run (the pages have no frames)
  const builder = new AxeBuilder({ page }).setLegacyMode(true);
  if (colours) builder.withRules(['color-contrast', 'link-in-text-block']);
  const { violations } = await builder.analyze();
  expect
    .soft(
      violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
      `axe: ${where}`,
    )
    .toEqual([]);
}

type ListMeasure = {
  /** Data rows on the page (not the 'Carregando…'/empty-state row, not a row's detail row). */
  rows: number;
  /** Data rows whose whole box is inside the viewport at scroll 0. */
  visible: number;
  /** Top of the first data row (or of the table body when there is none). */
  top: number;
  /** Mean height of the data rows (of the header row when the list is empty). */
  rowHeight: number;
  viewport: number;
};

/**
 * The page's list: the first table of the main content that follows a filter bar (a `search`
 * landmark) or is named after the page's heading ('Publicações no PNCP'). Version tables of /about
 * or a report's table inside the page are not lists. null when the page has no list.
 */
async function measureList(page: Page): Promise<ListMeasure | null> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const h1 = main?.querySelector('h1')?.textContent?.trim() ?? '';
    const hasFilterBar = !!main?.querySelector('search');
    const table = [...(main?.querySelectorAll('table') ?? [])].find((t) => {
      const name = t.querySelector('caption')?.textContent?.trim() ?? t.getAttribute('aria-label') ?? '';
      return hasFilterBar || (h1 !== '' && name.startsWith(h1));
    });
    if (!table) return null;
    const data = [...table.querySelectorAll<HTMLTableRowElement>(':scope > tbody > tr')].filter(
      (tr) => !tr.matches('.data-table__state-row, .data-table__detail-row') && tr.cells.length > 1,
    );
    const boxes = data.map((tr) => tr.getBoundingClientRect());
    const head = table.querySelector('thead tr')?.getBoundingClientRect();
    const body = table.tBodies[0]?.getBoundingClientRect();
    return {
      rows: data.length,
      visible: boxes.filter((b) => b.top >= 0 && b.bottom <= window.innerHeight + 0.5).length,
      top: boxes[0]?.top ?? body?.top ?? 0,
      rowHeight: boxes.length ? boxes.reduce((sum, b) => sum + b.height, 0) / boxes.length : (head?.height ?? 0),
      viewport: window.innerHeight,
    };
  });
}

test.describe('usability of every route in the menu', () => {
  // each test visits every route (about 20): well under a minute each on 2 idle cores, room for a busy machine
  test.describe.configure({ timeout: 600_000 });

  test(`every list shows at least ${MIN_ROWS} rows at 1366×768 without scrolling`, async ({ page }) => {
    await page.setViewportSize(WIDE);
    await signInFromHome(page, 'admin');
    const report: string[] = [];
    let lists = 0;
    for (const route of await menuRoutes(page)) {
      await open(page, route.href);
      const list = await measureList(page);
      if (!list) continue;
      lists++;
      const where = `${route.label} (${route.href})`;
      report.push(`${where}: ${list.visible}/${list.rows} rows visible, first row at y=${Math.round(list.top)}, rows ${list.rowHeight.toFixed(1)} px`);
      if (list.rows >= MIN_ROWS) {
        // enough data: count the rows a person sees without scrolling
        expect.soft(list.visible, `${where}: rows fully visible at 1366×768`).toBeGreaterThanOrEqual(MIN_ROWS);
      } else {
        // fewer rows in the demo than a screenful: every row shows, and the room for 12 rows of the
        // height measured here (of the header row when the list is empty) exists above the fold —
        // a list that shows its 3 rows but would show only 5 of 12 fails
        expect.soft(list.visible, `${where}: all of its ${list.rows} rows visible`).toBe(list.rows);
        expect.soft(list.rowHeight, `${where}: a row has a height`).toBeGreaterThan(0);
        expect
          .soft(list.top + MIN_ROWS * list.rowHeight, `${where}: bottom of ${MIN_ROWS} rows of ${list.rowHeight.toFixed(1)} px from y=${Math.round(list.top)}`)
          .toBeLessThanOrEqual(list.viewport);
      }
    }
    test.info().annotations.push({ type: 'rows', description: report.join('\n') });
    console.log(report.join('\n'));
    expect(lists, 'lists found in the menu').toBeGreaterThan(5);
  });

  for (const viewport of [WIDE, NARROW]) {
    test(`every route is axe-clean in light and dark at ${viewport.width}×${viewport.height}${viewport === NARROW ? ', without sideways scroll' : ''}`, async ({
      page,
    }) => {
      // signed in at 1366 px: at 360 the menu is a closed drawer (its links are read all the same)
      await page.setViewportSize(WIDE);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signInFromHome(page, 'admin');
      const routes = await menuRoutes(page);
      await page.setViewportSize(viewport);
      for (const route of routes) {
        // one load per route: every rule in light, then the theme switches live (the app follows
        // the system's scheme) and the colours are checked again in dark
        await theme(page, 'light');
        await open(page, route.href);
        await axe(page, `${route.label} (${route.href}) in light at ${viewport.width} px`);
        await theme(page, 'dark');
        await axe(page, `${route.label} (${route.href}) in dark at ${viewport.width} px`, true);
        if (viewport === NARROW) {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect.soft(width, `${route.label} (${route.href}): page width at 360 px`).toBeLessThanOrEqual(NARROW.width);
        }
      }
    });
  }

  test('walking new documents, records and an approval with Tab, at 1366 and 360 px, never leaves the focus under the sticky header', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(WIDE);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInFromHome(page, 'admin');
    const forms = new Map<string, string>();
    let records = 0;
    for (const route of await menuRoutes(page)) {
      await open(page, route.href);
      // the page's own 'Novo …'/'Nova …' actions (the list's, 'Nova a partir de …')
      const news = await page
        .getByRole('main')
        .locator('a[href]')
        .evaluateAll((as) =>
          as
            .filter((a) => /^Nov[oa]\b/.test(a.textContent?.trim() ?? ''))
            .map((a) => ({ href: (a as HTMLAnchorElement).pathname, label: a.textContent?.trim() ?? '' })),
        );
      for (const { href, label } of news) if (href && !forms.has(href)) forms.set(href, label);
      // and the first record the list opens (its edit form or its read-only page)
      const record = await page
        .getByRole('main')
        .locator('table > tbody a[href]')
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname).find((path) => path.split('/').length > 2));
      if (record && !forms.has(record)) {
        forms.set(record, `registro de ${route.label}`);
        records++;
      }
    }
    expect(forms.size, 'new-document pages found').toBeGreaterThan(5);
    expect(records, 'record pages found').toBeGreaterThan(5);
    // and an approval page, walked by whom it awaits: the demo's 'chefia' (approver of the first level)
    // follows her queue on the home page to the requisições she may approve
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: WIDE, reducedMotion: 'reduce' });
    const approver = await context.newPage();
    await signInFromHome(approver, 'chefia');
    await open(approver, '/');
    let approval: string | undefined;
    const queue = await approver
      .getByRole('main')
      .locator('a[href]')
      .evaluateAll((as) => [...new Set(as.map((a) => (a as HTMLAnchorElement).pathname + (a as HTMLAnchorElement).search))]);
    for (const href of queue) {
      await open(approver, href);
      approval = await approver
        .getByRole('main')
        .locator('a[href*="/aprovar/"]')
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname)[0]);
      if (approval) break;
    }
    expect(approval, "an approval page reached from chefia's queue").toBeTruthy();
    const walks = [...[...forms].map(([href, label]) => ({ page, href, label })), { page: approver, href: approval ?? '', label: 'aprovação (chefia)' }];
    const report: string[] = [];
    for (const { page, href, label, viewport } of walks.flatMap((walk) => [WIDE, NARROW].map((viewport) => ({ ...walk, viewport })))) {
      await page.setViewportSize(viewport);
      await open(page, href);
      // as a keyboard user: the skip link, then Tab through the content until the focus leaves it
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Pular para o conteúdo' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main')).toBeFocused();
      // forwards to the end of the content, then back with Shift+Tab (scrolling up is where the header covers)
      let stops = 0;
      let back = 0;
      const hidden: string[] = [];
      for (; stops + back < 300; ) {
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
        const focus = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el?.closest('main')) return null;
          const header = document.querySelector('.app-header, header')?.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          const name = (el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? el.tagName)
            .replace(/\s+/g, ' ')
            .trim();
          return { name: name.slice(0, 60), top: box.top, headerBottom: header?.bottom ?? 0 };
        });
        if (!focus) {
          if (back || stops === 0) break;
          back = 1;
          continue;
        }
        if (back) back++;
        else stops++;
        if (focus.top < focus.headerBottom - 0.5)
          hidden.push(`'${focus.name}' at y=${Math.round(focus.top)} (header ends at ${Math.round(focus.headerBottom)})`);
      }
      const where = `${label} (${href}) at ${viewport.width} px`;
      report.push(`${where}: ${stops} Tab stops, ${hidden.length} under the header`);
      expect.soft(stops, `${where}: Tab reaches the form`).toBeGreaterThan(0);
      expect.soft(hidden, `${where}: focused elements under the sticky header`).toEqual([]);
    }
    await context.close();
    test.info().annotations.push({ type: 'forms', description: report.join('\n') });
    console.log(report.join('\n'));
  });
});
