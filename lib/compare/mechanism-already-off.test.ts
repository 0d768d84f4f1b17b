import { describe, expect, it } from 'vitest';
import { DEFAULT_TAKEOVER, resolveRecovery } from '@/lib/protocol';
import { mechanismAlreadyOff } from './mechanism-already-off';

describe('mechanismAlreadyOff', () => {
  it('retry is on in codesmith, off once overridden; the naive preset has it off already', () => {
    const codesmith = { recovery: resolveRecovery('codesmith', {}), takeover: DEFAULT_TAKEOVER };
    expect(mechanismAlreadyOff(codesmith, 'retry')).toBe(false);
    expect(
      mechanismAlreadyOff(
        { ...codesmith, recovery: resolveRecovery('codesmith', { retry: { enabled: false } }) },
        'retry',
      ),
    ).toBe(true);
    expect(
      mechanismAlreadyOff({ recovery: resolveRecovery('naive', {}), takeover: DEFAULT_TAKEOVER }, 'retry'),
    ).toBe(true);
  });

  it('takeover handling is off when the run was naive', () => {
    const recovery = resolveRecovery('codesmith', {});
    expect(mechanismAlreadyOff({ recovery, takeover: DEFAULT_TAKEOVER }, 'takeover-handling')).toBe(false);
    expect(
      mechanismAlreadyOff({ recovery, takeover: { ...DEFAULT_TAKEOVER, naive: true } }, 'takeover-handling'),
    ).toBe(true);
  });

  it('tool approval is off when the run had no approval config', () => {
    const run = { recovery: resolveRecovery('codesmith', {}), takeover: DEFAULT_TAKEOVER };
    expect(mechanismAlreadyOff(run, 'tool-approval')).toBe(true);
    expect(mechanismAlreadyOff({ ...run, pause: { breakpoints: [] } }, 'tool-approval')).toBe(true);
    expect(
      mechanismAlreadyOff(
        { ...run, pause: { breakpoints: [], approval: { tools: 'all' } } },
        'tool-approval',
      ),
    ).toBe(false);
  });
});
