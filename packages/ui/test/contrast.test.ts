import { describe, expect, it } from 'vitest';
import css from '../src/styles.css?raw';

/** The stylesheet without comments (the header comment contains braces). */
const source = css.replace(/\/\*[\s\S]*?\*\//g, '');

/** Custom properties of the first rule whose selector list contains `selector` (exact). */
function tokens(selector: string, from = 0): Record<string, string> {
  const rule = /([^{}]+)\{([^{}]*)\}/g;
  rule.lastIndex = from;
  for (let m = rule.exec(source); m; m = rule.exec(source)) {
    const selectors = (m[1] ?? '').split(',').map((s) => s.trim());
    if (!selectors.includes(selector)) continue;
    const out: Record<string, string> = {};
    for (const [, name, value] of (m[2] ?? '').matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) out[name!] = value!.trim();
    return out;
  }
  throw new Error(`rule ${selector} not found`);
}

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function ratio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const TEXT = 4.5;
const UI = 3;

/** [foreground, background, minimum] for every pairing the components use. */
const pairs: Array<[string, string, number]> = [
  ['text', 'bg', TEXT],
  ['text', 'surface', TEXT],
  ['text', 'surface-muted', TEXT],
  ['text', 'surface-hover', TEXT],
  ['text', 'info-subtle', TEXT],
  ['text', 'success-subtle', TEXT],
  ['text', 'warning-subtle', TEXT],
  ['text', 'danger-subtle', TEXT],
  ['text-muted', 'bg', TEXT],
  ['text-muted', 'surface', TEXT],
  ['text-muted', 'surface-muted', TEXT],
  ['text-muted', 'surface-hover', TEXT],
  ['primary-text', 'bg', TEXT],
  ['primary-text', 'surface', TEXT],
  ['primary-text', 'surface-hover', TEXT],
  ['primary-text', 'primary-subtle', TEXT],
  ['on-primary', 'primary', TEXT],
  ['on-primary', 'primary-hover', TEXT],
  ['on-primary', 'primary-active', TEXT],
  ['on-danger', 'danger', TEXT],
  ['on-danger', 'danger-hover', TEXT],
  ['danger-text', 'surface', TEXT],
  ['danger-text', 'bg', TEXT],
  ['danger-text', 'danger-subtle', TEXT],
  ['success-text', 'surface', TEXT],
  ['success-text', 'success-subtle', TEXT],
  ['warning-text', 'surface', TEXT],
  ['warning-text', 'warning-subtle', TEXT],
  ['info-text', 'surface', TEXT],
  ['info-text', 'info-subtle', TEXT],
  // Non-text: control borders, focus ring, filled controls, status accents and icons.
  ['border-strong', 'surface', UI],
  ['border-strong', 'bg', UI],
  ['border-strong', 'surface-muted', UI],
  ['focus', 'bg', UI],
  ['focus', 'surface', UI],
  ['focus', 'surface-muted', UI],
  ['primary', 'surface', UI],
  ['primary', 'bg', UI],
  ['danger', 'surface', UI],
  ['danger', 'bg', UI],
  ['danger', 'danger-subtle', UI],
  ['success', 'surface', UI],
  ['success', 'success-subtle', UI],
  ['warning', 'surface', UI],
  ['warning', 'warning-subtle', UI],
  ['info', 'surface', UI],
  ['info', 'info-subtle', UI],
];

const themes = {
  light: tokens(':root[data-theme="light"]'),
  dark: tokens(':root[data-theme="dark"]'),
};

describe('design tokens: WCAG 2.2 AA contrast', () => {
  for (const [theme, t] of Object.entries(themes)) {
    it(`${theme}: every text pair ≥ 4.5:1 and every UI pair ≥ 3:1`, () => {
      const failures: string[] = [];
      for (const [fg, bg, min] of pairs) {
        const a = t[`--color-${fg}`];
        const b = t[`--color-${bg}`];
        if (!a || !b) {
          failures.push(`missing --color-${fg} or --color-${bg}`);
          continue;
        }
        const r = ratio(a, b);
        if (r < min) failures.push(`${fg} ${a} on ${bg} ${b}: ${r.toFixed(2)} < ${min}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('sets color-scheme per theme', () => {
    expect(source).toMatch(/:root\[data-theme="light"\]\s*\{\s*color-scheme:\s*light;/);
    expect(source).toMatch(/:root\[data-theme="dark"\]\s*\{\s*color-scheme:\s*dark;/);
  });

  it('the no-data-theme dark fallback is identical to data-theme="dark"', () => {
    const media = source.indexOf('@media (prefers-color-scheme: dark)');
    expect(media).toBeGreaterThan(0);
    expect(tokens(':root:not([data-theme="light"]):not([data-theme="dark"])', media)).toEqual(themes.dark);
  });

  it('both themes define the same tokens', () => {
    expect(Object.keys(themes.dark).sort()).toEqual(Object.keys(themes.light).sort());
  });

  it('the ratios quoted in the header comment are the real ones', () => {
    const header = css.slice(0, css.indexOf('*/'));
    const sections = { light: header.slice(0, header.indexOf(' *   Dark')), dark: header.slice(header.indexOf(' *   Dark')) };
    let count = 0;
    for (const [theme, text] of Object.entries(sections)) {
      const t = themes[theme as keyof typeof themes];
      for (const [, fgName, fg, bgName, bg, value] of text.matchAll(/([\w-]+) +(#[0-9a-f]{6}) on ([\w-]+) +(#[0-9a-f]{6}) +(\d+\.\d\d):1/gi)) {
        count++;
        expect([theme, fgName, t[`--color-${fgName}`]]).toEqual([theme, fgName, fg]);
        expect([theme, bgName, t[`--color-${bgName}`]]).toEqual([theme, bgName, bg]);
        expect(`${theme} ${fgName}/${bgName} ${ratio(fg!, bg!).toFixed(2)}`).toBe(`${theme} ${fgName}/${bgName} ${value}`);
      }
    }
    expect(count).toBeGreaterThanOrEqual(30);
  });
});
