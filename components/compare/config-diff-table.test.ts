import { describe, expect, it } from 'vitest';
import { configHeading } from './config-diff-table';

describe('the config table heading', () => {
  it('agrees in number with the fields it counts', () => {
    expect(configHeading(1)).toBe('Config: 1 field differs');
    expect(configHeading(14)).toBe('Config: 14 fields differ');
    expect(configHeading(0)).toBe('Config: the same in every field');
  });
});
