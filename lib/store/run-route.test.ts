import { describe, expect, it } from 'vitest';
import { foldRoute, NO_ROUTE, routeStops, type RouteEvent } from './run-route';

const a = { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' };
const o = { vendor: 'sim-openai', model: 'gpt-sim' };
const d = { vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' };

describe('a run’s route', () => {
  it('is the start alone for a run that never changed vendor', () => {
    expect(routeStops(foldRoute(NO_ROUTE, [], a), a)).toEqual([a]);
  });

  it('lists every vendor a swapped run used, in order, the start first', () => {
    const events: RouteEvent[] = [
      { kind: 'swap', from: a, to: o },
      { kind: 'swap', from: o, to: d },
      { kind: 'swap', from: d, to: a },
    ];
    expect(routeStops(foldRoute(NO_ROUTE, events, a), a)).toEqual([a, o, d, a]);
    // Folded batch by batch, the same.
    const byBatch = events.reduce((state, event) => foldRoute(state, [event], a), NO_ROUTE);
    expect(routeStops(byBatch, a)).toEqual([a, o, d, a]);
  });

  it('counts a same-vendor fallback model as a stop', () => {
    const state = foldRoute(
      NO_ROUTE,
      [
        { kind: 'fallback', model: 'claude-sim-haiku' },
        { kind: 'swap', from: { ...a, model: 'claude-sim-haiku' }, to: o },
      ],
      a,
    );
    expect(routeStops(state, a)).toEqual([a, { ...a, model: 'claude-sim-haiku' }, o]);
  });

  it('starts a fork where its copied turns ran, not where the fork was launched', () => {
    // A fork launched on OpenAI from a parent that ran turns 1–2 on Anthropic.
    expect(
      routeStops(
        foldRoute(
          NO_ROUTE,
          [
            { kind: 'fork', at: a },
            { kind: 'swap', from: a, to: o },
          ],
          o,
        ),
        o,
      ),
    ).toEqual([a, o]);
    // A fork that stays on the parent's vendor: one stop.
    expect(routeStops(foldRoute(NO_ROUTE, [{ kind: 'fork', at: a }], a), a)).toEqual([a]);
    // The parent's own swap in the copied turns comes first.
    expect(
      routeStops(
        foldRoute(
          NO_ROUTE,
          [
            { kind: 'fork', at: o },
            { kind: 'swap', from: a, to: o },
            { kind: 'swap', from: o, to: d },
          ],
          d,
        ),
        d,
      ),
    ).toEqual([a, o, d]);
  });
});
