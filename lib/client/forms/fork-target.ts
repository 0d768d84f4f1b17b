import type { RunConfig, Vendor } from '@/lib/protocol';
import { VendorSchema } from '@/lib/protocol/config';
import { isSimulated, needsBaseUrl, vendorDefaults } from '@/lib/protocol/vendors';
import type { TurnView } from '@/lib/run-view/run-view-state';

/** Where a fork goes, worked out in the dialog the way the server plans it (lib/runtime/plan-fork.ts). */
export interface ForkTarget {
  /** The vendor the fork continues on; undefined when the parent's vendor cannot run here (the server asks for one). */
  vendor: Vendor | undefined;
  /** The model it starts on when none is typed: the one that answered the turn on its vendor, else the vendor's default. */
  model: string;
  /** A real vendor or an OpenAI-compatible server: the dialog shows the key field (keys are never stored). */
  needsKey: boolean;
  /**
   * The base URL the server will use when none is typed: the parent's own, when the fork stays on
   * the parent's vendor (not a secret; the key is). Empty when there is none to keep.
   */
  baseUrl: string;
}

/** The vendor and model that answered turn k: the newest kept response up to it, else how the run started. */
export function answeredTurn(options: {
  turns: readonly Pick<TurnView, 'iteration' | 'result'>[];
  atTurn: number | undefined;
  start: { vendor?: string; model?: string };
}): { vendor?: string; model?: string } {
  let answered = { ...options.start };
  for (const t of options.turns) {
    if (options.atTurn !== undefined && t.iteration > options.atTurn) break;
    if (t.result?.vendor) answered = { vendor: t.result.vendor, model: t.result.model ?? answered.model };
  }
  return answered;
}

/**
 * The fork's target from the dialog's choice: "same as that turn" (chosen undefined) resolves
 * to the vendor that answered the turn — which may need a key even though nothing was picked,
 * and the dialog must then ask for it, or the fork could never start.
 */
export function forkTarget(options: {
  turns: readonly Pick<TurnView, 'iteration' | 'result'>[];
  atTurn: number | undefined;
  config: Pick<RunConfig, 'provider'> | undefined;
  chosen: Vendor | undefined;
}): ForkTarget {
  const { config, chosen } = options;
  const start = config ? { vendor: config.provider.vendor, model: config.provider.model } : {};
  const answered = answeredTurn({ turns: options.turns, atTurn: options.atTurn, start });
  const was = VendorSchema.safeParse(answered.vendor);
  const vendor = chosen ?? (was.success ? was.data : undefined);
  // The server keeps the parent's address only on the parent's own vendor.
  const keepsAddress = vendor !== undefined && vendor === config?.provider.vendor;
  return {
    vendor,
    model:
      chosen === undefined || chosen === answered.vendor
        ? (answered.model ?? '')
        : vendorDefaults(chosen).model,
    needsKey: vendor !== undefined && !isSimulated(vendor),
    baseUrl: keepsAddress && needsBaseUrl(vendor) ? (config?.provider.baseUrl ?? '') : '',
  };
}
