/**
 * Model profiles: what the Task loop needs to know about the model it talks to. Window and output
 * limits come from the Models API when it answers (cached in memory per base URL), else from the
 * built-in table in `engine/modelWindows.ts`, so a session works offline or behind a gateway that
 * has no Models API.
 */
import { contextWindowFor, isKnownModel, maxOutputFor } from '../engine/modelWindows';
import type { EngineSettings } from '../shared/engineSettings';
import { resolveEngineSettings } from '../shared/engineSettings';
import type { ModelClient, ModelInfo } from './modelClient';

export interface ModelProfile {
  id: string;
  /** Context window, tokens. */
  contextWindow: number;
  /** Largest answer the model may give, tokens (the request's `max_tokens` cap). */
  maxOutputTokens: number;
  /** The engine condenses once the prompt passes this share of the usable window, percent. */
  condensePercent: number;
  /** A cheaper model for condensing, when the user set one; the chat model otherwise. */
  condenseModel?: string;
  /** Where the window figure came from: the endpoint's Models API, the built-in table, or the safe default. */
  source: 'models-api' | 'table' | 'default';
}

export interface ProfileRequest {
  model: string;
  /** Key of the in-memory cache: one Models API listing per endpoint. */
  baseURL: string;
  client: Pick<ModelClient, 'listModels'>;
  /** Defaults to 80, the engine's `autoCondensePercent` default. */
  condensePercent?: number;
  condenseModel?: string;
  signal?: AbortSignal;
}

export const DEFAULT_CONDENSE_PERCENT = 80;

/** Answer room requested per call: the profile's max output, capped so a prompt keeps its share, tokens. */
export const MAX_ANSWER_TOKENS = 16_000;

/**
 * The engine settings a session of `profile` runs with: its window, its answer room as the output
 * reserve and its condense point, then whatever the user set (`explicit`) over them. The one place
 * both the session and the context panel (before a session opens) take them from.
 */
export function sessionEngineSettings(profile: Pick<ModelProfile, 'contextWindow' | 'maxOutputTokens' | 'condensePercent'>, explicit: Partial<EngineSettings>): EngineSettings {
  return resolveEngineSettings({
    contextWindow: profile.contextWindow,
    reservedOutputTokens: Math.min(profile.maxOutputTokens, MAX_ANSWER_TOKENS),
    autoCondensePercent: profile.condensePercent,
    ...explicit,
  });
}

/** A model's profile from the built-in table alone (no Models API call): for figures shown before a session opens. */
export function tableProfile(model: string): Pick<ModelProfile, 'contextWindow' | 'maxOutputTokens' | 'condensePercent'> {
  return { contextWindow: contextWindowFor(model), maxOutputTokens: maxOutputFor(model), condensePercent: DEFAULT_CONDENSE_PERCENT };
}

export class ModelProfileResolver {
  /** Successful listings only: a failed one is asked again next time (the network may be back). */
  private readonly catalogs = new Map<string, Promise<ModelInfo[] | undefined>>();

  async resolve(request: ProfileRequest): Promise<ModelProfile> {
    const listed = (await this.catalog(request))?.find((m) => m.id === request.model);
    const known = isKnownModel(request.model);
    return {
      id: request.model,
      contextWindow: listed?.maxInputTokens ?? contextWindowFor(request.model),
      maxOutputTokens: listed?.maxOutputTokens ?? maxOutputFor(request.model),
      condensePercent: request.condensePercent ?? DEFAULT_CONDENSE_PERCENT,
      ...(request.condenseModel ? { condenseModel: request.condenseModel } : {}),
      source: listed?.maxInputTokens !== undefined ? 'models-api' : known ? 'table' : 'default',
    };
  }

  private catalog(request: ProfileRequest): Promise<ModelInfo[] | undefined> {
    const cached = this.catalogs.get(request.baseURL);
    if (cached) return cached;
    const pending = request.client.listModels(request.signal).then(
      (models) => models,
      () => {
        this.catalogs.delete(request.baseURL);
        return undefined;
      },
    );
    this.catalogs.set(request.baseURL, pending);
    return pending;
  }
}
