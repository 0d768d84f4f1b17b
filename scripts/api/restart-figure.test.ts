import { describe, expect, it } from 'vitest';
import { restartFigure } from './restart-figure';

describe('SIGKILL and restart (a real server process)', () => {
  it('leaves 0 runs without a terminate event: every cut-off run is closed server_restart', async () => {
    const figure = await restartFigure({ runs: 3 });
    expect(figure.runningBefore).toBe(3);
    expect(figure.withoutTerminate).toBe(0);
    expect(figure.reasons).toEqual(['server_restart', 'server_restart', 'server_restart']);
  }, 120_000);
});
