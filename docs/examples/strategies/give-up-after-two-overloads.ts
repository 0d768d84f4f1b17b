import { defineStrategy } from '@/lib/engine/mechanism-port';

/**
 * A strategy of one's own (docs/strategies.md): give up on a model call after two overloaded
 * (529) answers in a row instead of waiting out the retry ladder — a fast-fail choice for a
 * loop that would rather end and be rerun than spend minutes on a busy vendor.
 *
 * Run it: npm run loop -- --strategy docs/examples/strategies/give-up-after-two-overloads.ts
 * or name it in a sweep configuration: { "id": "give-up", "preset": "codesmith",
 *   "strategy": { "file": "docs/examples/strategies/give-up-after-two-overloads.ts" } }
 */
export default defineStrategy({
  name: 'give-up-after-two-overloads',
  create: () => ({
    onError(ctx, error) {
      if (error.category !== 'overloaded' || error.consecutiveOverloads < 2) return undefined;
      const why = `${error.consecutiveOverloads} overloaded answers in a row: this strategy gives up on the call instead of retrying`;
      // Every decision is an event with its reason and what happens next.
      ctx.decide({ decision: 'give_up', next: 'surface', why });
      return { kind: 'give_up', message: why };
    },
  }),
});
