import { describe, expect, it } from 'vitest';
import { blend, contrastRatio, parseHex, relativeLuminance } from './contrast';

describe('contrast', () => {
  it('gives the WCAG extremes for black and white', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('matches published ratios for known pairs', () => {
    // WebAIM's checker: #777777 on white is 4.48:1, #767676 is the lightest grey at 4.54:1.
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    // Pure red on white 4.00:1, pure blue on white 8.59:1, mid grey #808080 on black 5.32:1.
    expect(contrastRatio('#ff0000', '#ffffff')).toBeCloseTo(4.0, 2);
    expect(contrastRatio('#0000ff', '#ffffff')).toBeCloseTo(8.59, 2);
    expect(contrastRatio('#808080', '#000000')).toBeCloseTo(5.32, 2);
  });

  it('is order-free', () => {
    expect(contrastRatio('#2b6cb0', '#131417')).toBe(contrastRatio('#131417', '#2b6cb0'));
  });

  it('parses short and long hex, and rejects anything else', () => {
    expect(parseHex('#abc')).toEqual([0xaa, 0xbb, 0xcc]);
    expect(parseHex('#25704A')).toEqual([0x25, 0x70, 0x4a]);
    expect(() => parseHex('rgb(0,0,0)')).toThrow(/#rrggbb/);
    expect(() => parseHex('#12345')).toThrow();
  });

  it('blends a translucent mark over its surface, and translucency costs contrast', () => {
    expect(blend('#000000', 0.5, '#ffffff')).toEqual([128, 128, 128]);
    expect(blend('#25704a', 1, '#ffffff')).toEqual([0x25, 0x70, 0x4a]);
    expect(blend('#25704a', 0, '#ffffff')).toEqual([255, 255, 255]);
    const solid = contrastRatio('#25704a', '#ffffff');
    const faded = contrastRatio(blend('#25704a', 0.4, '#ffffff'), '#ffffff');
    expect(solid).toBeGreaterThan(3);
    expect(faded).toBeLessThan(3);
  });
});
