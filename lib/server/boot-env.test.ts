import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '@/instrumentation';

/**
 * A server started with a setting that cannot work stops at boot, naming the variable and the
 * problem, rather than serving every page a bare 500 (what Next does when its boot hook throws).
 */
describe('the boot hook with a bad environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  it('prints what to fix and exits 1, before any run is taken up', async () => {
    process.env.NEXT_RUNTIME = 'nodejs';
    process.env.LOOP_LAB_ROOM_CODE = 'abc';
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(register()).rejects.toThrow('exit 1');
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed.mock.calls.flat().join('\n')).toMatch(
      /Loop Lab cannot start: LOOP_LAB_ROOM_CODE: must be at least 4 characters\. Fix it in the environment/,
    );
  });
});
