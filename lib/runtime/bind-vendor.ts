import { dialectFor, type DialectModule } from '@/lib/dialects';
import type { ProviderBinding } from '@/lib/engine';
import { findModel, vendorDefaults, type TakeoverHandling, type Vendor } from '@/lib/protocol';
import { createProvider } from '@/lib/providers';
import { fallbackModelOf } from './validate-config';

/** Where a run goes next: a vendor, a model ('' = its default), and for real endpoints an address and key. */
export interface VendorTarget {
  vendor: Vendor;
  model: string;
  baseUrl?: string;
  /** Held in memory for this run only; never in an event. */
  apiKey?: string;
  /** How history is handed over to it; absent: the run's `takeover`. */
  takeover?: TakeoverHandling;
}

/** A provider binding and what the rest of the runtime wants to know about it. */
export interface BoundVendor extends ProviderBinding {
  vendor: Vendor;
  dialect: DialectModule;
  contextWindow?: number;
}

/**
 * Binds a run to a vendor and model: the provider adapter over the real SDK (on the shared,
 * faulted fetch), the model, its fallback and its context window. Throws ProviderConfigError
 * when a real vendor cannot be reached as configured.
 */
export function bindVendor(options: {
  target: VendorTarget;
  fetch: typeof fetch;
  maxRetries: number;
  handling: TakeoverHandling;
  holdClock?: (work: Promise<void>) => Promise<void>;
}): BoundVendor {
  const { target } = options;
  const model = target.model || vendorDefaults(target.vendor).model;
  const provider = createProvider({
    vendor: target.vendor,
    ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    fetch: options.fetch,
    maxRetries: options.maxRetries,
    handling: options.handling,
    ...(options.holdClock ? { holdClock: options.holdClock } : {}),
  });
  const contextWindow = findModel(model)?.contextWindow;
  return {
    provider,
    vendor: target.vendor,
    model,
    fallbackModel: fallbackModelOf(target.vendor),
    dialect: dialectFor({ vendor: target.vendor, model }),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
  };
}
