import type { Clock } from '@/lib/clock';

/** What the vendor keeps of one response: the whole conversation up to and including its output. */
export interface StoredResponse {
  id: string;
  model: string;
  /** Every input item of the chain, then this response's output items, as wire records. */
  items: Record<string, unknown>[];
  instructions: string;
  expiresAt: number;
}

/** Stored responses live 30 days, as the real vendor's do (run time). */
export const STORED_RESPONSE_TTL_MS = 30 * 24 * 3_600_000;

/**
 * The responses a simulated Responses vendor stores (`store`, true unless the request says
 * false), kept per model: a `previous_response_id` is looked up among the responses of the
 * model the request names, so a response minted by another model, an expired one or one never
 * stored is not found. One store per simulated vendor, so it outlives a swap away and back.
 */
export class ResponseStore {
  private readonly byModel = new Map<string, Map<string, StoredResponse>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number = STORED_RESPONSE_TTL_MS,
  ) {}

  put(response: Omit<StoredResponse, 'expiresAt'>): void {
    let models = this.byModel.get(response.model);
    if (!models) this.byModel.set(response.model, (models = new Map()));
    models.set(response.id, { ...response, expiresAt: this.clock.now() + this.ttlMs });
  }

  /** The response, when it is this model's, was stored and has not expired. */
  get(options: { id: string; model: string }): StoredResponse | undefined {
    const models = this.byModel.get(options.model);
    const found = models?.get(options.id);
    if (!found) return undefined;
    if (found.expiresAt <= this.clock.now()) {
      models!.delete(options.id);
      return undefined;
    }
    return found;
  }
}
