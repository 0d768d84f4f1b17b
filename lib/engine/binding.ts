import type { ProviderAdapter } from '@/lib/providers/types';

/** The vendor and model a run is bound to: the provider adapter, the model answering now, and its fallback. */
export interface ProviderBinding {
  provider: ProviderAdapter;
  model: string;
  fallbackModel: string;
}

/**
 * The one holder of a run's binding. The model call, the background call and the context
 * channel read the binding in force from here at each request; a swap (at a request boundary,
 * or a cross-vendor fallback between two attempts) replaces it in one step, and the same-vendor
 * fallback changes only the model. Nothing else in the engine keeps its own copy.
 */
export class RunBinding implements ProviderBinding {
  private current: ProviderBinding;

  constructor(initial: ProviderBinding) {
    this.current = { provider: initial.provider, model: initial.model, fallbackModel: initial.fallbackModel };
  }

  get provider(): ProviderAdapter {
    return this.current.provider;
  }

  get model(): string {
    return this.current.model;
  }

  get fallbackModel(): string {
    return this.current.fallbackModel;
  }

  /** Moves the run to another provider and model (with that vendor's fallback) from the next request on. */
  swap(next: ProviderBinding): void {
    this.current = { provider: next.provider, model: next.model, fallbackModel: next.fallbackModel };
  }

  /** The same-vendor fallback: another model on the provider in force. */
  useModel(model: string): void {
    this.current = { ...this.current, model };
  }
}
