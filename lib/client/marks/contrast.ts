/**
 * WCAG 2.x relative luminance and contrast ratio for `#rrggbb` colours, and alpha blending
 * for marks drawn translucent over a surface. Used to hold the drawn marks' palette to the
 * 3:1 that WCAG 1.4.11 asks of graphics which carry meaning (text has its own 4.5:1 check in
 * e2e/accessibility.spec.ts; axe does not look at graphics).
 */

export type Rgb = readonly [number, number, number];

/** Parses `#rrggbb` or `#rgb`; throws on anything else so a typo in the palette is loud. */
export function parseHex(hex: string): Rgb {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as unknown as Rgb;
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance in [0, 1] (WCAG 2.x definition, sRGB). */
export function relativeLuminance(colour: string | Rgb): number {
  const [r, g, b] = typeof colour === 'string' ? parseHex(colour) : colour;
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Contrast ratio in [1, 21] between two colours, order-free. */
export function contrastRatio(a: string | Rgb, b: string | Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The colour seen when `fg` is drawn at `alpha` (0..1) over an opaque `bg` (plain sRGB mix, as browsers composite). */
export function blend(fg: string | Rgb, alpha: number, bg: string | Rgb): Rgb {
  const f = typeof fg === 'string' ? parseHex(fg) : fg;
  const g = typeof bg === 'string' ? parseHex(bg) : bg;
  return [0, 1, 2].map((i) => Math.round(f[i]! * alpha + g[i]! * (1 - alpha))) as unknown as Rgb;
}
