import { describe, expect, it } from 'vitest';
import { DEFAULT_TAKEOVER, resolveRecovery } from '@/lib/protocol';
import { McpConfigSchema } from '@/lib/protocol/mcp';
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

  it('MCP reconnect is off when the run has no MCP server or its client does not reconnect', () => {
    const recovery = resolveRecovery('codesmith', {});
    const mcp = McpConfigSchema.parse({
      servers: [{ name: 'ws', shipped: 'workspace', transport: 'stdio' }],
    });
    const run = { recovery, takeover: DEFAULT_TAKEOVER };
    expect(mechanismAlreadyOff({ ...run, mcp }, 'mcp-reconnect')).toBe(false);
    expect(
      mechanismAlreadyOff(
        { ...run, mcp: { ...mcp, recovery: { ...mcp.recovery, reconnect: false } } },
        'mcp-reconnect',
      ),
    ).toBe(true);
    expect(mechanismAlreadyOff(run, 'mcp-reconnect')).toBe(true);
  });
});
